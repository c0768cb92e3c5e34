import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { users } from '../../src/db/schema/index.ts'
import type { CliResult } from '../helpers/cli.ts'
import { signIn } from '../helpers/dashboard.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

const MAIN = join(import.meta.dir, '../../src/main.ts')

/** `deskhook …` as its own process, with `stdin` piped in (a password with --password-stdin). */
async function deskhook(args: string[], stdin = ''): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    stdin: new TextEncoder().encode(stdin),
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

describe('deskhook users, on a data dir', () => {
  const dir = tempDir()
  const data = ['--data', dir.path]
  afterAll(() => dir.remove())

  test('create, list, reset-password and remove, with clear errors and exit codes', async () => {
    const created = await deskhook(
      ['users', 'create', '--email', 'Boss@Example.com', '--role', 'admin', '--password-stdin', ...data],
      'boss-password-1\n',
    )
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect(created.stdout).toContain('Created admin boss@example.com')

    const member = await deskhook(
      ['users', 'create', '--email', 'ana@example.com', '--password-stdin', '--json', ...data],
      'ana-password-1',
    )
    expect(member.code).toBe(0)
    const ana = JSON.parse(member.stdout)
    expect(ana).toMatchObject({ email: 'ana@example.com', role: 'member' })
    expect(ana.passwordHash).toBeUndefined()

    const listed = await deskhook(['users', 'list', '--json', ...data])
    expect(JSON.parse(listed.stdout).map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['boss@example.com', 'admin'],
      ['ana@example.com', 'member'],
    ])
    expect(listed.stdout).not.toContain('argon2')
    const table = await deskhook(['users', 'list', ...data])
    expect(table.stdout).toMatch(/^EMAIL\s+ROLE\s+CREATED\s+LAST SIGN-IN\s+ID$/m)
    expect(table.stdout).toMatch(/^ana@example\.com\s+member\s+\d{4}-/m)

    const failures: [string[], string, string, number][] = [
      [['create', '--email', 'ana@example.com', '--password-stdin'], 'long-enough-1', 'already a person', 1],
      [
        ['create', '--email', 'x@example.com', '--role', 'owner', '--password-stdin'],
        'long-enough-1',
        'A role is one of: admin, member',
        1,
      ],
      [['create', '--email', 'x@example.com', '--password-stdin'], 'short\n', 'at least 10 characters', 1],
      [['create', '--email', 'x@example.com', '--password-stdin'], '\n', 'No password on stdin', 1],
      [
        ['create', '--email', 'not-an-email', '--password-stdin'],
        'long-enough-1',
        'Enter an email address',
        1,
      ],
      // Without a terminal, nothing can be typed: it says how to pipe the password instead.
      [['create', '--email', 'x@example.com'], '', '--password-stdin', 1],
      [['create', '--password-stdin'], 'long-enough-1', "required option '--email <email>'", 1],
      [
        ['reset-password', 'nobody@example.com', '--password-stdin'],
        'long-enough-1',
        'No person with the id or email nobody@example.com',
        3,
      ],
      [['remove', 'ana@example.com'], '', 'add --yes to confirm', 1],
      [['remove', 'nobody@example.com', '--yes'], '', 'No person with the id or email', 3],
      [['remove', 'boss@example.com', '--yes'], '', 'The last admin cannot be removed', 1],
    ]
    for (const [args, stdin, message, code] of failures) {
      const r = await deskhook(['users', ...args, ...data], stdin)
      expect({ args, code: r.code }).toEqual({ args, code })
      expect(r.stderr).toContain(message)
    }
    const still = JSON.parse((await deskhook(['users', 'list', '--json', ...data])).stdout)
    expect(still.map((u: { email: string }) => u.email)).toEqual(['boss@example.com', 'ana@example.com'])

    const reset = await deskhook(
      ['users', 'reset-password', 'ANA@example.com', '--password-stdin', ...data],
      'ana-password-2\n',
    )
    expect(reset.code).toBe(0)
    expect(reset.stdout).toContain('Set a new password for ana@example.com')
    const removed = await deskhook(['users', 'remove', 'ana@example.com', '--yes', '--json', ...data])
    expect(removed.code).toBe(0)
    expect(JSON.parse(removed.stdout).removed.email).toBe('ana@example.com')
    expect(JSON.parse((await deskhook(['users', 'list', '--json', ...data])).stdout)).toHaveLength(1)
  }, 60_000)
})

/** `deskhook …` at a terminal (a pty from util-linux `script`), answering each prompt as it appears. */
async function atTerminal(args: string[], answers: [prompt: string, answer: string][]): Promise<CliResult> {
  const command = [process.execPath, MAIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const proc = Bun.spawn(['script', '-qec', command, '/dev/null'], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  })
  let output = ''
  const decoder = new TextDecoder()
  const pending = [...answers]
  const reader = proc.stdout.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    output += decoder.decode(value)
    while (pending.length && output.includes(pending[0]![0])) {
      const [prompt, answer] = pending.shift()!
      output = output.replace(prompt, `${prompt}⏎`)
      proc.stdin.write(`${answer}\r`)
      proc.stdin.flush()
    }
  }
  const code = await proc.exited
  return { code, stdout: output, stderr: await new Response(proc.stderr).text() }
}

const hasScript = Bun.which('script') !== null

describe('deskhook users, at a terminal', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())

  test.skipIf(!hasScript)(
    'asks for the password twice without echoing it, and refuses two that differ',
    async () => {
      const data = ['--data', dir.path]
      const differ = await atTerminal(
        ['users', 'create', '--email', 'tty@example.com', '--role', 'admin', ...data],
        [
          ['(not shown): ', 'first-password-1'],
          ['again: ', 'other-password-2'],
        ],
      )
      expect(differ.code).toBe(1)
      expect(differ.stdout).toContain('The two passwords differ; nothing was changed')
      expect(differ.stdout).not.toContain('first-password-1')
      expect(JSON.parse((await deskhook(['users', 'list', '--json', ...data])).stdout)).toEqual([])

      const ok = await atTerminal(
        ['users', 'create', '--email', 'tty@example.com', '--role', 'admin', ...data],
        [
          ['(not shown): ', 'tty-password-1'],
          ['again: ', 'tty-password-1'],
        ],
      )
      expect(ok.code).toBe(0)
      expect(ok.stdout).toContain('Created admin tty@example.com')
      expect(ok.stdout).not.toContain('tty-password-1')
      const listed = await deskhook(['users', 'list', '--json', ...data])
      expect(JSON.parse(listed.stdout)[0].email).toBe('tty@example.com')
    },
    60_000,
  )
})

describe('deskhook users, while the server runs on the same data dir', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer({ watchIntervalMs: 20 })
  })
  afterAll(() => s.close())
  const data = () => ['--data', s.dataDir]

  test('people the CLI creates sign in; a reset or removal ends their sessions at once', async () => {
    const boss = await deskhook(
      ['users', 'create', '--email', 'boss@example.com', '--role', 'admin', '--password-stdin', ...data()],
      'boss-password-1',
    )
    expect(boss.code).toBe(0)
    // The first-run page is over once someone exists, however they were made.
    const setup = await fetch(s.setupUrl!, { redirect: 'manual' })
    expect(setup.headers.get('location')).toBe('/_/sign-in')
    const admin = await signIn(s, { email: 'boss@example.com', password: 'boss-password-1' })
    expect((await admin.get('/_/settings/people')).status).toBe(200)

    expect(
      (
        await deskhook(
          [
            'users',
            'create',
            '--email',
            'ana@example.com',
            '--role',
            'member',
            '--password-stdin',
            ...data(),
          ],
          'ana-password-1\n',
        )
      ).code,
    ).toBe(0)
    const hash = s.ctx.db.select().from(users).where(eq(users.email, 'ana@example.com')).get()!.passwordHash
    expect(hash).toStartWith('$argon2id$')
    const ana = await signIn(s, { email: 'ana@example.com', password: 'ana-password-1', role: 'member' })
    expect((await ana.get('/_/')).status).toBe(200)
    expect(await (await admin.get('/_/settings/people')).text()).toContain('ana@example.com')

    const reset = await deskhook(
      ['users', 'reset-password', 'ana@example.com', '--password-stdin', ...data()],
      'ana-password-2\n',
    )
    expect(reset.code).toBe(0)
    const signedOut = await ana.get('/_/')
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get('location')).toStartWith('/_/sign-in')
    const again = await signIn(s, { email: 'ana@example.com', password: 'ana-password-2', role: 'member' })
    expect((await again.get('/_/')).status).toBe(200)

    const removed = await deskhook(['users', 'remove', 'ana@example.com', '--yes', ...data()])
    expect(removed.code).toBe(0)
    expect(removed.stdout).toContain('Removed ana@example.com')
    expect((await again.get('/_/')).status).toBe(303)
    expect(await (await admin.get('/_/settings/people')).text()).not.toContain('ana@example.com')

    const listed = await deskhook(['users', 'list', ...data()])
    expect(listed.stdout).toMatch(/^boss@example\.com\s+admin\s+\S+\s+\d{4}-/m)
  }, 60_000)
})
