import type { Command } from 'commander'
import { AppError } from '../lib/errors.ts'
import { cliActor } from '../modules/audit/actor.ts'
import {
  createUser,
  findUserByEmail,
  listUsers,
  normaliseEmail,
  removeUser,
  requireUser,
  resetPassword,
  USER_ROLES,
} from '../modules/users/service.ts'
import { confirm, readHidden } from './prompt.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

/** More than any password the service accepts: a stream that long is not a password. */
const MAX_STDIN_BYTES = 4096

/**
 * The password: from stdin with --password-stdin (first line; `echo "$PW" |` and `printf %s "$PW" |`
 * give the same), else typed twice without echo at a terminal. Never from argv, where the process
 * list and shell history would keep it.
 */
async function readPassword(fromStdin: boolean, who: string): Promise<string> {
  if (fromStdin) {
    const bytes = await Bun.stdin.bytes()
    if (bytes.length > MAX_STDIN_BYTES)
      throw new AppError('INVALID_REQUEST', `The password on stdin is longer than ${MAX_STDIN_BYTES} bytes`)
    const password = new TextDecoder().decode(bytes).replace(/\r?\n$/, '')
    if (!password) throw new AppError('INVALID_REQUEST', 'No password on stdin')
    return password
  }
  if (!process.stdin.isTTY)
    throw new AppError(
      'INVALID_REQUEST',
      'No terminal to type the password at: pipe it with --password-stdin (e.g. from a password manager)',
    )
  const first = await readHidden(`Password for ${who} (not shown): `)
  const again = await readHidden('The same password again: ')
  if (first !== again) throw new AppError('INVALID_REQUEST', 'The two passwords differ; nothing was changed')
  return first
}

export function registerUsers(program: Command): void {
  const users = program
    .command('users')
    .description('people who sign in to the dashboard: create, list, reset a password, remove')

  addSettingOptions(users.command('create').description('add a person who signs in to the dashboard (/_/)'), [
    'dataDir',
  ])
    .requiredOption('--email <email>', 'the address they sign in with')
    .option(
      '--role <role>',
      `${USER_ROLES.join(' or ')}: admins manage keys, people, desktops and settings`,
      'member',
    )
    .option('--password-stdin', 'read the password from stdin instead of prompting')
    .option('--json', 'print JSON')
    .action((opts) =>
      run(async () => {
        const ctx = openCliContext(opts)
        // Refuse a bad role or a taken email before asking for a password.
        if (!USER_ROLES.includes(opts.role))
          throw new AppError('INVALID_REQUEST', `A role is one of: ${USER_ROLES.join(', ')}`)
        if (findUserByEmail(ctx, normaliseEmail(opts.email)))
          throw new AppError('INVALID_REQUEST', `There is already a person with the email ${opts.email}`)
        const password = await readPassword(!!opts.passwordStdin, opts.email)
        const user = await createUser(ctx, { email: opts.email, password, role: opts.role }, cliActor())
        if (opts.json) return printJson(user)
        process.stdout.write(`Created ${user.role} ${user.email}. They sign in to the dashboard at /_/.\n`)
      }),
    )

  addSettingOptions(users.command('list').description('list the people (never their passwords)'), ['dataDir'])
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const list = listUsers(openCliContext(opts))
        if (opts.json) return printJson(list)
        if (!list.length)
          return process.stdout.write(
            'Nobody yet. Create the first admin: deskhook users create --role admin --email you@example.com\n',
          )
        printTable([
          ['EMAIL', 'ROLE', 'CREATED', 'LAST SIGN-IN', 'ID'],
          ...list.map((u) => [u.email, u.role, u.createdAt, u.lastSignInAt ?? '-', u.id]),
        ])
      }),
    )

  addSettingOptions(
    users
      .command('reset-password')
      .description('set a new password; every session of that person ends at once')
      .argument('<email>', 'their email (or id)'),
    ['dataDir'],
  )
    .option('--password-stdin', 'read the new password from stdin instead of prompting')
    .option('--json', 'print JSON')
    .action((email: string, opts) =>
      run(async () => {
        const ctx = openCliContext(opts)
        const user = requireUser(ctx, email)
        const password = await readPassword(!!opts.passwordStdin, user.email)
        const updated = await resetPassword(ctx, user.id, password, cliActor())
        if (opts.json) return printJson(updated)
        process.stdout.write(`Set a new password for ${updated.email}; their sessions have ended.\n`)
      }),
    )

  addSettingOptions(
    users
      .command('remove')
      .description('remove a person; they are signed out at once (never the last admin)')
      .argument('<email>', 'their email (or id)'),
    ['dataDir'],
  )
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--json', 'print JSON')
    .action((email: string, opts) =>
      run(async () => {
        const ctx = openCliContext(opts)
        const user = requireUser(ctx, email)
        if (!opts.yes) {
          if (!process.stdin.isTTY)
            throw new AppError(
              'INVALID_REQUEST',
              `Removing ${user.email} cannot be undone; add --yes to confirm`,
            )
          if (!(await confirm(`Remove ${user.email} (${user.role})? They are signed out at once. [y/N] `)))
            return process.stderr.write('Nobody removed.\n')
        }
        const removed = removeUser(ctx, user.id, cliActor())
        if (opts.json) return printJson({ removed })
        process.stdout.write(`Removed ${removed.email}; their sessions have ended.\n`)
      }),
    )
}
