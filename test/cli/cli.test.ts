import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addJobVersion } from '../../src/modules/jobs/service.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterAll(() => s.close())

describe('deskhook keys', () => {
  test('create → list → revoke, with the running server following at once', async () => {
    const created = await cli(['keys', 'create', '--name', 'ci', '--json', '--data', s.dataDir])
    expect(created.code).toBe(0)
    const key = JSON.parse(created.stdout)
    expect(key.key).toMatch(/^dh_[0-9A-Za-z]{49}$/)
    expect((await s.call('/_jobs', { key: key.key })).status).toBe(200)

    const listed = await cli(['keys', 'list', '--json', '--data', s.dataDir])
    const list = JSON.parse(listed.stdout)
    expect(list.map((k: { name: string }) => k.name)).toEqual(['default', 'ci'])
    expect(listed.stdout.includes(key.key)).toBe(false)
    expect(list[1].prefix).toBe(key.key.slice(0, 9))

    const human = await cli(['keys', 'list', '--data', s.dataDir])
    expect(human.stdout).toMatch(/ci\s+dh_\w{6}…/)

    const revoked = await cli(['keys', 'revoke', key.prefix, '--data', s.dataDir])
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toContain('Revoked API key "ci"')
    expect((await s.call('/_jobs', { key: key.key })).status).toBe(401)
  })

  test('create prints the key once with a warning', async () => {
    const r = await cli(['keys', 'create', '--name', 'human', '--data', s.dataDir])
    expect(r.stdout).toMatch(/dh_[0-9A-Za-z]{49}/)
    expect(r.stdout).toContain('cannot show it again')
  })

  test('revoking an unknown key fails clearly', async () => {
    const r = await cli(['keys', 'revoke', 'dh_nope', '--data', s.dataDir])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('No API key with id or prefix dh_nope')
  })

  test('create without --name explains itself', async () => {
    const r = await cli(['keys', 'create', '--data', s.dataDir])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain("required option '--name <name>' not specified")
  })
})

describe('deskhook jobs', () => {
  test('promote and demote take effect on the running server without a restart', async () => {
    const teach = await (
      await s.call('/customers', { method: 'POST', json: teachBody({ prompt: 'Create a customer' }) })
    ).json()

    const early = await cli(['jobs', 'promote', 'POST', '/customers', '--data', s.dataDir])
    expect(early.code).toBe(1)
    expect(early.stderr).toContain('no successful build yet')

    // What a succeeding build does: store a draft version.
    addJobVersion(s.ctx, teach.jobId, { version: 1, app: {}, steps: [], scenarios: [] })
    const promoted = await cli(['jobs', 'promote', 'post', '/customers', '--json', '--data', s.dataDir])
    expect(promoted.code).toBe(0)
    expect(JSON.parse(promoted.stdout)).toMatchObject({ mode: 'live', liveVersion: 1 })
    // Live now: an async call is accepted (no desktop is online, so it waits in the queue).
    await eventually(async () => (await s.call('/customers?async=1', { method: 'POST' })).status === 202)
    const listed = JSON.parse((await cli(['jobs', 'list', '--json', '--data', s.dataDir])).stdout)
    expect(listed.jobs[0]).toMatchObject({
      path: '/customers',
      mode: 'live',
      liveVersion: 1,
      draftVersion: 1,
    })

    const demoted = await cli(['jobs', 'demote', 'POST', '/customers', '--data', s.dataDir])
    expect(demoted.stdout).toContain('POST /customers is now learning')
    await eventually(async () => (await s.call('/customers?async=1', { method: 'POST' })).status === 409)
  })

  test('unknown job → exit 3 with the reason', async () => {
    const r = await cli(['jobs', 'promote', 'POST', '/nope', '--data', s.dataDir])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('No job is registered on POST /nope')
  })

  test('jobs list on an empty data dir says how to start', async () => {
    const dir = tempDir()
    const r = await cli(['jobs', 'list', '--data', dir.path])
    dir.remove()
    expect(r.stdout).toContain('No jobs yet')
  })
})

describe('configuration and help', () => {
  test('bad settings are all reported together, naming flag and variable', async () => {
    const r = await cli(['serve', '--port', 'abc', '--data', '/tmp/x'], {
      DESKHOOK_LOG_LEVEL: 'loud',
      DESKHOOK_BODY_LIMIT: 'huge',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Invalid configuration')
    expect(r.stderr).toContain('--port (DESKHOOK_PORT, from --port)')
    expect(r.stderr).toContain('--log-level (DESKHOOK_LOG_LEVEL, from DESKHOOK_LOG_LEVEL)')
    expect(r.stderr).toContain('--body-limit')
  })

  test('flags win over the environment, which wins over defaults', async () => {
    const dir = tempDir()
    const env = { DESKHOOK_DATA_DIR: dir.path }
    await cli(['keys', 'create', '--name', 'from-env'], env)
    const fromEnv = JSON.parse((await cli(['keys', 'list', '--json'], env)).stdout)
    expect(fromEnv.map((k: { name: string }) => k.name)).toEqual(['from-env'])
    const other = tempDir()
    const fromFlag = JSON.parse((await cli(['keys', 'list', '--json', '--data', other.path], env)).stdout)
    expect(fromFlag).toEqual([])
    dir.remove()
    other.remove()
  })

  const commands = [
    [],
    ['serve'],
    ['keys'],
    ['keys', 'create'],
    ['keys', 'list'],
    ['keys', 'revoke'],
    ['jobs'],
    ['jobs', 'list'],
    ['jobs', 'promote'],
    ['jobs', 'demote'],
    ['desktops'],
    ['desktops', 'token'],
    ['desktops', 'list'],
    ['desktops', 'revoke'],
    ['backup'],
    ['restore'],
    ['status'],
    ['audit'],
    ['audit', 'verify'],
    ['keys', 'rotate'],
    ['jobs', 'retention'],
    ['agent'],
    ['webhooks'],
    ['webhooks', 'secret'],
  ]
  test.each(commands)('deskhook %s --help', async (...cmd) => {
    const r = await cli([...cmd, '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: deskhook')
  })

  test('agent --help says what each driver drives', async () => {
    const r = await cli(['agent', '--help'])
    const help = r.stdout.replace(/\s+/g, ' ')
    expect(help).toContain('browser web apps in Chromium or Edge over the DevTools protocol')
    expect(help).toContain('desktop native Linux apps (GTK, Qt…) through the AT-SPI accessibility bus')
    expect(help).toContain('Linux only')
  })

  test('serve --help names every variable', async () => {
    const r = await cli(['serve', '--help'])
    for (const v of ['DESKHOOK_PORT', 'DESKHOOK_DATA_DIR', 'DESKHOOK_BODY_LIMIT', 'DESKHOOK_LOG_LEVEL'])
      expect(r.stdout).toContain(v)
  })
})
