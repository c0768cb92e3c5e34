import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { samples } from '../../src/db/schema/index.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const sampleOf = (sampleId: string) => s.ctx.db.select().from(samples).where(eq(samples.id, sampleId)).get()!

describe('teach calls', () => {
  test('the first call creates a learning job with its sample and a queued build', async () => {
    const res = await s.call('/customers?source=web&email=from-query@example.com', {
      method: 'POST',
      json: teachBody(
        {
          prompt: 'Create a customer in the CRM and return its id',
          expect: { customerId: { $type: 'string' } },
        },
        { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } },
      ),
      headers: { 'X-Custom': 'Yes' },
    })
    expect(res.status).toBe(202)
    const body = await res.json()
    expect(Object.keys(body).sort()).toEqual([
      'buildId',
      'buildPath',
      'jobId',
      'mode',
      'sampleId',
      'stabilityScore',
    ])
    expect(body.mode).toBe('learning')
    expect(body.buildPath).toBe(`/_builds/${body.buildId}`)
    expect(res.headers.get('location')).toBe(body.buildPath)
    expect(body.stabilityScore).toBe(0)

    // Body wins over the query; the envelope is removed; _http has lower-case headers without the key.
    const sample = sampleOf(body.sampleId)
    expect(sample.input).toMatchObject({
      source: 'web',
      email: 'ada@example.com',
      name: { first: 'Ada', last: 'Lovelace' },
    })
    expect(sample.input.deskhook).toBeUndefined()
    const http = sample.input._http as {
      method: string
      path: string
      params: object
      headers: Record<string, string>
    }
    expect(http.method).toBe('POST')
    expect(http.path).toBe('/customers')
    expect(http.params).toEqual({})
    expect(http.headers['x-custom']).toBe('Yes')
    expect(http.headers['x-api-key']).toBeUndefined()
    expect(Object.keys(http.headers).every((h) => h === h.toLowerCase())).toBe(true)
    expect(sample.expect).toEqual({ customerId: { $type: 'string' } })

    const build = await (await s.call(body.buildPath)).json()
    expect(build).toMatchObject({
      id: body.buildId,
      jobId: body.jobId,
      sampleId: body.sampleId,
      status: 'queued',
      question: null,
    })
    expect(build.progress.length).toBeGreaterThan(0)
  })

  test('later calls extend the same job; the prompt is optional then', async () => {
    const first = await (
      await s.call('/invoices', {
        method: 'POST',
        json: teachBody({ prompt: 'Create an invoice' }, { amount: 1 }),
      })
    ).json()
    const second = await (
      await s.call('/invoices', {
        method: 'POST',
        json: teachBody({ scenario: 'big amount' }, { amount: 100000 }),
      })
    ).json()
    expect(second.jobId).toBe(first.jobId)
    expect(second.sampleId).not.toBe(first.sampleId)
    expect(second.buildId).not.toBe(first.buildId)
    const jobs = (await (await s.call('/_jobs')).json()).jobs
    const job = jobs.find((j: { id: string }) => j.id === first.jobId)
    expect(job.scenarios).toEqual(
      expect.arrayContaining([
        { name: 'unsorted', samples: 1, passing: 0 },
        { name: 'big amount', samples: 1, passing: 0 },
      ]),
    )
  })

  test('the same path on another method is another job', async () => {
    const a = await (
      await s.call('/orders', { method: 'POST', json: teachBody({ prompt: 'Create an order' }) })
    ).json()
    const b = await (
      await s.call('/orders', { method: 'PUT', json: teachBody({ prompt: 'Replace an order' }) })
    ).json()
    expect(a.jobId).not.toBe(b.jobId)
  })

  test('a GET job is taught with deskhook.method, since GET requests carry no body', async () => {
    const res = await s.call('/lookup', {
      method: 'POST',
      json: teachBody({ prompt: 'Find a customer', method: 'GET' }, { id: 'C-1040' }),
    })
    expect(res.status).toBe(202)
    const job = (await (await s.call('/_jobs')).json()).jobs.find(
      (j: { path: string }) => j.path === '/lookup',
    )
    expect(job.method).toBe('GET')
    const live = await s.call('/lookup?id=C-1040')
    expect(live.status).toBe(409)
  })
})

describe('path parameters', () => {
  test('a concrete call with deskhook.path registers the pattern and stores the params', async () => {
    const res = await s.call('/customers/C-1040/notes', {
      method: 'POST',
      json: teachBody(
        { prompt: 'Add a note to a customer', path: '/customers/:customerId/notes' },
        { note: 'Called' },
      ),
    })
    expect(res.status).toBe(202)
    const body = await res.json()
    expect((sampleOf(body.sampleId).input._http as { params: object }).params).toEqual({
      customerId: 'C-1040',
    })

    // A second concrete call without `path` extends the job that matches it.
    const again = await (
      await s.call('/customers/C-2000/notes', { method: 'POST', json: teachBody({}, { note: 'x' }) })
    ).json()
    expect(again.jobId).toBe(body.jobId)
    expect((sampleOf(again.sampleId).input._http as { params: object }).params).toEqual({
      customerId: 'C-2000',
    })
  })

  test('a call on the literal pattern registers it', async () => {
    const res = await s.call('/tickets/:ticket/close', {
      method: 'POST',
      json: teachBody({ prompt: 'Close a ticket' }),
    })
    expect(res.status).toBe(202)
    const jobs = (await (await s.call('/_jobs')).json()).jobs
    expect(jobs.some((j: { path: string }) => j.path === '/tickets/:ticket/close')).toBe(true)
  })

  test('static segments win over parameters', async () => {
    const param = await (
      await s.call('/items/:id', { method: 'POST', json: teachBody({ prompt: 'Update an item' }) })
    ).json()
    // A concrete call extends the job that matches it...
    const asSample = await (await s.call('/items/new', { method: 'POST', json: teachBody({}) })).json()
    expect(asSample.jobId).toBe(param.jobId)
    // ...unless deskhook.path names a pattern of its own.
    const fixed = await (
      await s.call('/items/new', {
        method: 'POST',
        json: teachBody({ prompt: 'Create an item', path: '/items/new' }),
      })
    ).json()
    expect(fixed.jobId).not.toBe(param.jobId)
    const again = await (await s.call('/items/new', { method: 'POST', json: teachBody({}) })).json()
    expect(again.jobId).toBe(fixed.jobId)
    const extend = await (await s.call('/items/42', { method: 'POST', json: teachBody({}) })).json()
    expect(extend.jobId).toBe(param.jobId)
  })
})
