import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
  await s.call('/customers', {
    method: 'POST',
    json: teachBody(
      { prompt: 'Create a customer', expect: { customerId: { $type: 'string' }, vip: false } },
      { email: 'a@example.com', vip: true, tags: ['x'] },
    ),
  })
  await s.call('/customers', {
    method: 'POST',
    json: teachBody({}, { email: 'b@example.com', phone: '+49 1' }),
  })
  await s.call('/customers/C-1/notes', {
    method: 'POST',
    json: teachBody({ prompt: 'Add a note', path: '/customers/:id/notes' }, { note: 'n' }),
  })
  await s.call('/lookup', { method: 'POST', json: teachBody({ prompt: 'Find a customer', method: 'GET' }) })
})
afterAll(() => s.close())

test('swagger.json is a valid OpenAPI 3.1 document describing every job', async () => {
  const res = await s.call('/swagger.json', { key: null })
  expect(res.status).toBe(200)
  const doc = await res.json()
  const result = await new Validator().validate(doc)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
  expect(doc.openapi).toBe('3.1.0')
  expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' })

  const create = doc.paths['/customers'].post
  expect(create.summary).toBe('Create a customer')
  expect(Object.keys(create.responses).sort()).toEqual(
    expect.arrayContaining(['200', '202', '207', '401', '404', '502']),
  )
  const names = create.parameters.map((p: { $ref?: string; name?: string }) => p.$ref ?? p.name)
  expect(names).toEqual(
    expect.arrayContaining([
      '#/components/parameters/async',
      '#/components/parameters/callbackUrl',
      '#/components/parameters/asyncHeader',
    ]),
  )
  // Inferred from two samples: email in both (required), the rest optional.
  const input = create.requestBody.content['application/json'].schema
  expect(input.properties.email.type).toBe('string')
  expect(input.properties.tags.type).toBe('array')
  expect(input.required).toEqual(['email'])
  expect(input.properties._http).toBeUndefined()
  const output = create.responses['200'].content['application/json'].schema
  expect(output.properties).toEqual({ customerId: { type: 'string' }, vip: { type: 'boolean' } })

  const note = doc.paths['/customers/{id}/notes'].post
  expect(note.parameters[0]).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string' } })
  expect(doc.paths['/lookup'].get).toBeDefined()
  expect(doc.paths['/lookup'].get.requestBody).toBeUndefined()
  for (const p of ['/_jobs', '/_executions/{id}', '/_builds/{id}', '/_builds/{id}/answers', '/swagger.json'])
    expect(doc.paths[p]).toBeDefined()
  expect(doc.paths['/swagger.json'].get.security).toEqual([])
})

test('the document follows new jobs at once', async () => {
  await s.call('/invoices', { method: 'POST', json: teachBody({ prompt: 'Create an invoice' }) })
  const doc = await (await s.call('/swagger.json', { key: null })).json()
  expect(doc.paths['/invoices'].post.summary).toBe('Create an invoice')
})
