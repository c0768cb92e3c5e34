import { afterEach, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config/index.ts'
import { createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { createUser } from '../../src/modules/users/service.ts'
import {
  readSession,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  startSession,
} from '../../src/modules/users/sessions.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const dirs: { remove(): void }[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})

async function setup() {
  const dir = tempDir()
  dirs.push(dir)
  const db = openDatabase(dir.path)
  migrate(db.$client)
  let now = Date.parse('2031-01-01T08:00:00.000Z')
  const ctx = createContext({
    config: loadConfig({ dataDir: dir.path }, {}),
    db,
    log: createLogger({ level: 'silent', format: 'json' }),
    clock: { now: () => new Date(now) },
  })
  const user = await createUser(ctx, { email: 'ana@example.com', password: 'long-enough-pw', role: 'member' })
  return { ctx, user, advance: (ms: number) => (now += ms) }
}

test('a session ends after 30 minutes without a visit', async () => {
  const { ctx, user, advance } = await setup()
  const token = startSession(ctx, user.id, null)
  advance(SESSION_IDLE_MS - 60_000)
  expect(readSession(ctx, token)?.user.email).toBe('ana@example.com')
  advance(SESSION_IDLE_MS - 60_000)
  // Visited 29 minutes ago: still open, and the visit moved the idle deadline.
  expect(readSession(ctx, token)).not.toBeNull()
  advance(SESSION_IDLE_MS + 1)
  expect(readSession(ctx, token)).toBeNull()
})

test('a session ends 12 hours after sign-in even when used all the time', async () => {
  const { ctx, user, advance } = await setup()
  const token = startSession(ctx, user.id, null)
  for (let t = 0; t < SESSION_MAX_MS - 10 * 60_000; t += 10 * 60_000) {
    advance(10 * 60_000)
    expect(readSession(ctx, token)).not.toBeNull()
  }
  advance(10 * 60_000 + 1)
  expect(readSession(ctx, token)).toBeNull()
})

test('a sign-in gets a new token; the CSRF token is bound to it', async () => {
  const { ctx, user } = await setup()
  const a = startSession(ctx, user.id, null)
  const b = startSession(ctx, user.id, null)
  expect(a).not.toBe(b)
  expect(readSession(ctx, a)!.csrf).not.toBe(readSession(ctx, b)!.csrf)
  expect(readSession(ctx, 'not-a-token')).toBeNull()
})
