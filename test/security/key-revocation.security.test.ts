import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { createKey } from '../../src/modules/keys/service.ts'
import { cli } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 23 N9: a key revoked from the CLI kept working until the database watcher's next pass
// (~250 ms); the README says "effective on the next request".
setDefaultTimeout(30_000)

let s: TestServer
beforeAll(async () => {
  // The watcher's longest interval: only a check on the request itself can notice the revocation.
  s = await startTestServer({ watchIntervalMs: 60_000 })
})
afterAll(() => s.close())

test('a key revoked by the CLI (another process) is refused on the very next request', async () => {
  const created = createKey(s.ctx, { name: 'soon-revoked' })
  // Verified and cached by the server.
  for (let i = 0; i < 3; i++) expect((await s.call('/_jobs', { key: created.key })).status).toBe(200)

  const revoked = await cli(['keys', 'revoke', created.prefix, '--data', s.dataDir])
  expect(revoked.code).toBe(0)
  const res = await s.call('/_jobs', { key: created.key })
  expect(res.status).toBe(401)
  expect((await res.json()).error.code).toBe('UNAUTHORIZED')
  // Other keys are unaffected.
  expect((await s.call('/_jobs')).status).toBe(200)
})

test('a key rotated by the CLI with no overlap is refused on the very next request', async () => {
  const created = createKey(s.ctx, { name: 'soon-rotated' })
  expect((await s.call('/_jobs', { key: created.key })).status).toBe(200)
  const rotated = await cli(['keys', 'rotate', created.id, '--overlap', '0s', '--json', '--data', s.dataDir])
  expect(rotated.code).toBe(0)
  expect((await s.call('/_jobs', { key: created.key })).status).toBe(401)
})
