import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { jobSecretNames, jobSecretValues } from '../../src/modules/secrets/service.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

const MAIN = join(import.meta.dir, '../../src/main.ts')
const PASSWORD = 'Tr0ub4dor&3-horse-battery'

let s: TestServer
let jobId: string

/** `deskhook …` with `stdin` piped in, as from a password manager. */
async function withStdin(args: string[], stdin: string) {
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
  return { stdout, stderr, code }
}

beforeAll(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
  const res = await s.call('/portal/tickets', {
    method: 'POST',
    json: teachBody({ prompt: 'Open a ticket' }),
  })
  jobId = (await res.json()).jobId
})
afterAll(() => s.close())

describe('deskhook jobs secret', () => {
  test('set reads the value from stdin; list shows names only; the server reads it at once', async () => {
    const set = await withStdin(
      ['jobs', 'secret', 'set', 'post', '/portal/tickets', 'password', '--data', s.dataDir],
      `${PASSWORD}\n`,
    )
    expect(set.stderr).toBe('')
    expect(set.code).toBe(0)
    expect(set.stdout).toBe(
      'Stored secret "password" for POST /portal/tickets; steps use it as {{$secrets.password}}.\n',
    )
    expect(
      (
        await withStdin(
          ['jobs', 'secret', 'set', 'POST', '/portal/tickets', 'username', '--data', s.dataDir],
          'ada',
        )
      ).code,
    ).toBe(0)

    const listed = await cli([
      'jobs',
      'secret',
      'list',
      'POST',
      '/portal/tickets',
      '--json',
      '--data',
      s.dataDir,
    ])
    expect(listed.code).toBe(0)
    const names = JSON.parse(listed.stdout).secrets.map((x: { name: string }) => x.name)
    expect(names).toEqual(['password', 'username'])
    expect(listed.stdout).not.toContain(PASSWORD)
    const human = await cli(['jobs', 'secret', 'list', 'POST', '/portal/tickets', '--data', s.dataDir])
    expect(human.stdout).toMatch(/^NAME\s+UPDATED\npassword\s+\d{4}-.*\nusername\s+/)

    // The builder is told the names; runs get the values (the trailing newline of `echo` dropped).
    expect(jobSecretNames(s.ctx, jobId)).toEqual(['password', 'username'])
    await eventually(async () => Object.keys(jobSecretValues(s.ctx, jobId)).length === 2)
    expect(jobSecretValues(s.ctx, jobId)).toEqual({ password: PASSWORD, username: 'ada' })
  })

  test('the value is encrypted at rest under a 0600 key file', async () => {
    const key = join(s.dataDir, 'secrets.key')
    expect(statSync(key).mode & 0o777).toBe(0o600)
    expect(statSync(key).size).toBe(32)
    s.ctx.db.$client.run('PRAGMA wal_checkpoint(FULL)')
    for (const file of ['deskhook.db', 'deskhook.db-wal']) {
      let bytes: Buffer
      try {
        bytes = readFileSync(join(s.dataDir, file))
      } catch {
        continue
      }
      expect(bytes.includes(Buffer.from(PASSWORD))).toBe(false)
    }
    const row = s.ctx.db.$client
      .query<{ c: Uint8Array }, []>("SELECT ciphertext AS c FROM job_secrets WHERE name = 'password'")
      .get()!
    expect(row.c.length).toBe(12 + 16 + Buffer.byteLength(PASSWORD))
  })

  test('replacing and removing; the server stops using a removed value', async () => {
    const replaced = await withStdin(
      ['jobs', 'secret', 'set', 'POST', '/portal/tickets', 'username', '--data', s.dataDir],
      'grace\r\n',
    )
    expect(replaced.stdout).toContain('Replaced secret "username"')
    // The server sees another process's commit within its watch interval.
    await eventually(async () => jobSecretValues(s.ctx, jobId).username === 'grace')
    const removed = await cli([
      'jobs',
      'secret',
      'remove',
      'POST',
      '/portal/tickets',
      'username',
      '--data',
      s.dataDir,
    ])
    expect(removed.code).toBe(0)
    expect(removed.stdout).toBe('Removed secret "username" from POST /portal/tickets.\n')
    await eventually(async () => !('username' in jobSecretValues(s.ctx, jobId)))
    expect(jobSecretValues(s.ctx, jobId)).toEqual({ password: PASSWORD })
    const again = await cli([
      'jobs',
      'secret',
      'remove',
      'POST',
      '/portal/tickets',
      'username',
      '--data',
      s.dataDir,
    ])
    expect(again.code).toBe(3)
    expect(again.stderr).toContain('has no secret named "username"')
  })

  test('bad input: a value on the command line, an empty value, a bad name, an unknown job', async () => {
    const argv = await cli([
      'jobs',
      'secret',
      'set',
      'POST',
      '/portal/tickets',
      'password',
      'hunter2',
      '--data',
      s.dataDir,
    ])
    expect(argv.code).not.toBe(0)
    expect(argv.stderr).toContain('too many arguments')
    const empty = await withStdin(
      ['jobs', 'secret', 'set', 'POST', '/portal/tickets', 'pin', '--data', s.dataDir],
      '\n',
    )
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain('No value')
    const name = await withStdin(
      ['jobs', 'secret', 'set', 'POST', '/portal/tickets', '1 bad', '--data', s.dataDir],
      'x',
    )
    expect(name.code).toBe(1)
    expect(name.stderr).toContain('A secret name is a letter or _')
    const reserved = await withStdin(
      ['jobs', 'secret', 'set', 'POST', '/_jobs', 'pin', '--data', s.dataDir],
      'x',
    )
    expect(reserved.code).toBe(1)
    expect(reserved.stderr).toContain('/_jobs is reserved')
    const method = await withStdin(['jobs', 'secret', 'set', 'HEAD', '/x', 'pin', '--data', s.dataDir], 'x')
    expect(method.code).toBe(1)
    expect(method.stderr).toContain('not HEAD')
    expect(jobSecretNames(s.ctx, jobId)).toEqual(['password'])
  })

  test('before the job exists: kept for its route, listed, and taken over by the first teaching call', async () => {
    const set = await withStdin(
      ['jobs', 'secret', 'set', 'post', '/later/tickets', 'pin', '--data', s.dataDir],
      'Pin-4821',
    )
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('Stored secret "pin" for POST /later/tickets')
    expect(set.stdout).toContain('No job is taught there yet')
    const listed = await cli([
      'jobs',
      'secret',
      'list',
      'POST',
      '/later/tickets',
      '--json',
      '--data',
      s.dataDir,
    ])
    expect(JSON.parse(listed.stdout)).toMatchObject({ pending: true, secrets: [{ name: 'pin' }] })
    // The route is not a job: calls still get 404.
    expect((await s.call('/later/tickets', { method: 'POST', json: {} })).status).toBe(404)
    const res = await s.call('/later/tickets', {
      method: 'POST',
      json: teachBody({ prompt: 'Open a ticket' }),
    })
    const later = (await res.json()).jobId
    expect(jobSecretValues(s.ctx, later)).toEqual({ pin: 'Pin-4821' })
    expect(s.ctx.db.$client.query('SELECT count(*) AS n FROM route_secrets').get()).toEqual({ n: 0 })
  })

  test('secrets go with their job', async () => {
    const r = await cli(['jobs', 'delete', 'POST', '/portal/tickets', '--yes', '--data', s.dataDir])
    expect(r.code).toBe(0)
    expect(
      s.ctx.db.$client.query('SELECT count(*) AS n FROM job_secrets WHERE job_id = ?').get(jobId),
    ).toEqual({ n: 0 })
  })
})
