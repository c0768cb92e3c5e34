import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { jobs } from '../../src/db/schema/index.ts'
import { createKey, type NewKeyInput, revokeKey } from '../../src/modules/keys/service.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * P10: a key outside its scopes or job patterns gets 403 FORBIDDEN_SCOPE naming what it may do;
 * a bad key gets 401 whatever its scopes would have been. Each row: key × route → status.
 */
let s: TestServer
const keys: Record<string, string> = {}

const LIMITS: Record<string, Omit<NewKeyInput, 'name'>> = {
  all: {},
  call: { scopes: 'call' },
  teach: { scopes: 'teach' },
  read: { scopes: 'read' },
  customers: { jobs: '/customers/*' },
  postCustomersCall: { scopes: 'call', jobs: 'POST /customers/:id' },
}

beforeAll(async () => {
  s = await startTestServer()
  await liveJob(s, 'POST', '/customers/:id')
  await liveJob(s, 'POST', '/orders/:id')
  await liveJob(s, 'GET', '/customers/:id')
  for (const [name, limits] of Object.entries(LIMITS)) keys[name] = createKey(s.ctx, { name, ...limits }).key
})
afterAll(() => s.close())

type Route = [label: string, path: string, init: RequestInit & { json?: unknown }]
const ROUTES: Record<string, Route> = {
  callCustomer: ['call POST /customers/1', '/customers/1?async=1', { method: 'POST' }],
  callCustomerGet: ['call GET /customers/1', '/customers/1?async=1', { method: 'GET' }],
  callOrder: ['call POST /orders/1', '/orders/1?async=1', { method: 'POST' }],
  teachCustomer: [
    'teach POST /customers/1/notes',
    '/customers/1/notes',
    { method: 'POST', json: teachBody({ prompt: 'Add a note' }) },
  ],
  teachOrder: [
    'teach POST /orders/9/lines',
    '/orders/9/lines',
    { method: 'POST', json: teachBody({ prompt: 'Add a line' }) },
  ],
  listJobs: ['read GET /_jobs', '/_jobs', {}],
  readExecution: ['read GET /_executions/<unknown>', '/_executions/0190b6a8-0000-7000-8000-000000000000', {}],
  readBuild: ['read GET /_builds/<unknown>', '/_builds/nope', {}],
  answer: [
    'teach POST /_builds/<unknown>/answers',
    '/_builds/nope/answers',
    { method: 'POST', json: { questionId: 'q', answer: 'a' } },
  ],
  deleteJob: ['teach DELETE /_jobs/<unknown>', '/_jobs/nope', { method: 'DELETE' }],
}

/** What each route answers when the key may use it (none of these is a 401 or a 403). */
const ALLOWED: Record<keyof typeof ROUTES, number> = {
  callCustomer: 202,
  callCustomerGet: 202,
  callOrder: 202,
  teachCustomer: 202,
  teachOrder: 202,
  listJobs: 200,
  readExecution: 404,
  readBuild: 404,
  answer: 404,
  deleteJob: 404,
}

/** The routes each key may use; every other route must answer 403. */
const MAY: Record<keyof typeof LIMITS, (keyof typeof ROUTES)[]> = {
  all: Object.keys(ROUTES),
  // A call key polls the executions it created (an unknown id is a 404): poll-own-execution.security.test.ts.
  call: ['callCustomer', 'callCustomerGet', 'callOrder', 'readExecution'],
  teach: ['teachCustomer', 'teachOrder', 'answer', 'deleteJob'],
  read: ['listJobs', 'readExecution', 'readBuild'],
  customers: [
    'callCustomer',
    'callCustomerGet',
    'teachCustomer',
    'listJobs',
    'readExecution',
    'readBuild',
    'answer',
    'deleteJob',
  ],
  postCustomersCall: ['callCustomer', 'readExecution'],
}

const send = (path: string, init: RequestInit & { json?: unknown }, key: string | null) =>
  s.call(path, { ...init, key })

describe('scoped keys: key × route → status', () => {
  for (const [keyName, allowed] of Object.entries(MAY)) {
    for (const [route, [label, path, init]] of Object.entries(ROUTES)) {
      const ok = allowed.includes(route)
      const expected = ok ? ALLOWED[route]! : 403
      test(`${keyName} key: ${label} → ${expected}`, async () => {
        const res = await send(path, init, keys[keyName]!)
        expect(res.status).toBe(expected)
        if (ok) return
        const body = await res.json()
        expect(body.error.code).toBe('FORBIDDEN_SCOPE')
        expect(body.error.requestId).toBe(res.headers.get('x-request-id')!)
        expect(res.headers.get('www-authenticate')).toBeNull()
        // The answer names what the key may do.
        const limits = LIMITS[keyName]!
        expect(body.error.allowed.scopes).toEqual(limits.scopes ? [limits.scopes] : ['call', 'teach', 'read'])
        expect(body.error.allowed.jobs).toEqual(limits.jobs ? [limits.jobs] : null)
        expect(body.error.message).toContain(`may ${body.error.allowed.scopes.join(', ')}`)
      })
    }
  }
})

describe('401 before 403 (P10)', () => {
  test('a revoked or malformed key gets 401 on a route its scopes would refuse, not 403', async () => {
    const limited = createKey(s.ctx, { name: 'soon-revoked', scopes: 'read' })
    revokeKey(s.ctx, limited.id)
    for (const key of [limited.key, 'junk', null]) {
      const res = await send('/customers/1?async=1', { method: 'POST' }, key)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain('ApiKey')
      expect((await res.json()).error.code).toBe('UNAUTHORIZED')
    }
  })

  test('a teaching call by a call-only key is refused before it teaches anything', async () => {
    const before = s.ctx.db.select({ n: count() }).from(jobs).get()!.n
    const res = await send('/brand-new', { method: 'POST', json: teachBody({ prompt: 'x' }) }, keys.call!)
    expect(res.status).toBe(403)
    expect(s.ctx.db.select({ n: count() }).from(jobs).get()!.n).toBe(before)
  })

  test('a 403 on a reserved path is decided before the body is read', async () => {
    const res = await send(
      '/_builds/nope/answers',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' },
      keys.read!,
    )
    expect(res.status).toBe(403)
  })

  test('job patterns match whole segments: /customers/* does not cover /customers-old/1 or /customers', async () => {
    for (const path of ['/customers-old/1?async=1', '/customers?async=1']) {
      const res = await send(path, { method: 'POST' }, keys.customers!)
      expect(res.status).toBe(403)
    }
  })
})
