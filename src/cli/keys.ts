import type { Command } from 'commander'
import { cliActor } from '../modules/audit/actor.ts'
import { describeLimits } from '../modules/keys/model.ts'
import type { CreatedKey, KeyInfo } from '../modules/keys/service.ts'
import { createKey, listKeys, revokeKey, rotateKey } from '../modules/keys/service.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

const status = (k: KeyInfo) =>
  k.status === 'revoked'
    ? `revoked ${k.revokedAt}`
    : k.status === 'expired'
      ? `expired ${k.expiresAt}`
      : k.expiresAt
        ? `active until ${k.expiresAt}${k.replacedBy ? ' (rotated)' : ''}`
        : 'active'

function printCreated(key: CreatedKey, verb: string): void {
  process.stdout.write(
    `${verb} API key "${key.name}" (id ${key.id}, may ${describeLimits(key)}${key.expiresAt ? `, expires ${key.expiresAt}` : ''}).\n\n  ${key.key}\n\nStore it now: deskhook keeps only a hash and cannot show it again.\n`,
  )
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('create, list, rotate and revoke API keys')

  addSettingOptions(keys.command('create').description('create an API key (shown once)'), ['dataDir'])
    .requiredOption('--name <name>', 'a name that says who uses the key')
    .option('--scopes <list>', 'what it may do, comma-separated: call, teach, read [default: all]')
    .option(
      '--jobs <patterns>',
      'jobs it may reach, comma-separated: /customers/*, "POST /orders/:id" [default: all]',
    )
    .option('--rate <n>', 'requests per second (token bucket) [default: unlimited]')
    .option('--burst <n>', 'requests allowed at once above the rate [default: one second’s worth]')
    .option('--expires <duration>', 'refuse it after this long: 90s, 15m, 24h, 30d, 2w [default: never]')
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        const key = createKey(
          ctx,
          {
            name: opts.name,
            scopes: opts.scopes,
            jobs: opts.jobs,
            rate: opts.rate,
            burst: opts.burst,
            expires: opts.expires,
          },
          cliActor(),
        )
        if (opts.json) return printJson(key)
        printCreated(key, 'Created')
      }),
    )

  addSettingOptions(keys.command('list').description('list API keys (never their secrets)'), ['dataDir'])
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const list = listKeys(openCliContext(opts))
        if (opts.json) return printJson(list)
        if (!list.length) return process.stdout.write('No API keys.\n')
        printTable([
          ['ID', 'NAME', 'PREFIX', 'MAY', 'CREATED', 'LAST USED', 'STATUS'],
          ...list.map((k) => [
            k.id,
            k.name,
            `${k.prefix}…`,
            describeLimits(k),
            k.createdAt,
            k.lastUsedAt ?? '-',
            status(k),
          ]),
        ])
      }),
    )

  addSettingOptions(
    keys
      .command('rotate')
      .description('replace a key: prints the new one once; the old one works until the overlap ends')
      .argument('<name-id-or-prefix>', 'the key’s name, id, or the prefix `keys list` shows'),
    ['dataDir'],
  )
    .option('--overlap <duration>', 'how long the old key keeps working: 0s, 15m, 24h, 7d', '24h')
    .option('--expires <duration>', 'the new key’s lifetime [default: the old key’s lifetime, else never]')
    .option('--json', 'print JSON')
    .action((ref: string, opts) =>
      run(() => {
        const { key, old } = rotateKey(
          openCliContext(opts),
          ref.replace(/…$/, ''),
          { overlap: opts.overlap, expires: opts.expires },
          cliActor(),
        )
        if (opts.json) return printJson({ key, old })
        printCreated(key, 'Rotated: new')
        process.stdout.write(`The old key ${old.prefix}… keeps working until ${old.expiresAt}.\n`)
      }),
    )

  addSettingOptions(
    keys
      .command('revoke')
      .description('revoke an API key at once')
      .argument('<id-or-prefix>', 'the key id, or the prefix `keys list` shows'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((idOrPrefix: string, opts) =>
      run(() => {
        const key = revokeKey(openCliContext(opts), idOrPrefix.replace(/…$/, ''), cliActor())
        if (opts.json) return printJson(key)
        process.stdout.write(`Revoked API key "${key.name}" (${key.prefix}…).\n`)
      }),
    )
}
