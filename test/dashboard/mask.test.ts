import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import {
  jobSecrets,
  NO_JOB_SECRETS,
  type Secrets,
  secretKeyTest,
  secretMasker,
} from '../../src/dashboard/ui/mask.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { jobs } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { SECRETS_KEY_FILE } from '../../src/modules/secrets/key-file.ts'
import { MASK } from '../../src/modules/secrets/scrub.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const secrets = (over: Partial<Secrets> = {}): Secrets => ({ ...NO_JOB_SECRETS, ...over })

describe('secretKeyTest', () => {
  const isSecret = secretKeyTest(['doorCode', 'X-Tenant-Token'])

  test('credential-looking names in any case or separator style', () => {
    for (const name of [
      'password',
      'Password',
      'apiKey',
      'api_key',
      'API KEY',
      'client_secret',
      'x-auth-token',
      'authToken',
      'sessionId',
      'cookie',
      'x-hub-signature-256',
      'pin',
      'cardPin',
      'pwd',
      'passcode',
      'otp',
    ])
      expect({ name, secret: isSecret(name) }).toEqual({ name, secret: true })
  })

  test("the job's own secret names and kept headers, in any case", () => {
    expect(isSecret('doorCode')).toBe(true)
    expect(isSecret('DOORCODE')).toBe(true)
    expect(isSecret('x-tenant-token')).toBe(true)
  })

  test('ordinary names are not secrets (words, not substrings)', () => {
    for (const name of [
      'name',
      'email',
      'note',
      'spinner',
      'pinned',
      'author',
      'tokenizer',
      'code',
      'options',
    ])
      expect({ name, secret: isSecret(name) }).toEqual({ name, secret: false })
  })
})

describe('secretMasker', () => {
  test('masks credential members whole, deeply, and leaves the rest', () => {
    const hide = secretMasker(secrets())
    expect(
      hide({
        name: 'Ada',
        password: 'hunter2',
        nested: { apiToken: { value: 'tok-123' }, list: [{ pin: 1234, city: 'Oslo' }] },
        _http: { headers: { 'x-request-source': 'crm' } },
      }),
    ).toEqual({
      name: 'Ada',
      password: MASK,
      nested: { apiToken: MASK, list: [{ pin: MASK, city: 'Oslo' }] },
      _http: { headers: { 'x-request-source': 'crm' } },
    })
  })

  test("scrubs the job's secret values wherever they occur, keys and errors too", () => {
    const hide = secretMasker(secrets({ values: ['99-RED-42'] }))
    expect(
      hide({
        note: 'the door code is 99-RED-42',
        error: { message: 'typed 99-RED-42 twice: 99-RED-42' },
        '99-RED-42': 'as a key',
      }),
    ).toEqual({
      note: `the door code is ${MASK}`,
      error: { message: `typed ${MASK} twice: ${MASK}` },
      [MASK]: 'as a key',
    })
    expect(hide('the app said 99-RED-42')).toBe(`the app said ${MASK}`)
  })

  test('what the caller sent under a credential name is scrubbed wherever it shows up later', () => {
    const input = { customer: { name: 'Ada', password: 'Xy7-real-secret', pin: 4321 } }
    const hide = secretMasker(secrets(), input)
    expect(hide(input)).toEqual({ customer: { name: 'Ada', password: MASK, pin: MASK } })
    // A step that typed the password reports it in its result; a number is matched as text.
    expect(hide({ value: 'Xy7-real-secret' })).toEqual({ value: MASK })
    expect(hide('Type Xy7-real-secret, code 4321')).toBe(`Type ${MASK}, code ${MASK}`)
    // The name alone (without the value) is not a secret.
    expect(hide('Ada')).toBe('Ada')
  })

  test('a one- or two-character secret is masked only where it is the whole string', () => {
    const hide = secretMasker(secrets({ values: ['7'] }), { pin: '42' })
    expect(hide({ a: '42', b: 'room 142', c: '7', d: 'ticket 77' })).toEqual({
      a: MASK,
      b: 'room 142',
      c: MASK,
      d: 'ticket 77',
    })
  })

  test('a form keeps its shape with the mask it is given', () => {
    const hide = secretMasker(secrets({ isSecret: secretKeyTest(['doorCode']) }), undefined, '')
    expect(hide({ name: 'Ada', doorCode: 'x', password: 'y' })).toEqual({
      name: 'Ada',
      doorCode: '',
      password: '',
    })
  })

  test('leaves what holds no secret as it was', () => {
    const hide = secretMasker(secrets({ values: ['s3cret'] }), { name: 'Ada' })
    for (const v of [null, 42, true, 'plain', ['a', 1], { a: { b: [1, 'two'] } }]) expect(hide(v)).toEqual(v)
  })
})

describe('jobSecrets', () => {
  let dir: ReturnType<typeof tempDir>
  const logs: string[] = []
  const context = (): AppContext => {
    const db = openDatabase(dir.path)
    migrate(db.$client)
    const destination = { write: (line: string) => logs.push(line) } as unknown as NodeJS.WritableStream
    return createContext({
      config: loadConfig({ dataDir: dir.path }, {}),
      db,
      log: createLogger({ level: 'warn', format: 'json', destination }),
      clock: { now: () => new Date() },
    })
  }

  beforeAll(() => {
    dir = tempDir()
    const ctx = context()
    const now = new Date().toISOString()
    ctx.db
      .insert(jobs)
      .values({
        id: 'job_door',
        method: 'POST',
        path: '/door',
        prompt: 'Open the door',
        keptHeaders: ['x-tenant-token'],
        createdAt: now,
        updatedAt: now,
      })
      .run()
    setJobSecret(ctx, 'POST', '/door', 'doorCode', '99-RED-42')
    setJobSecret(ctx, 'POST', '/door', 'x-tenant-token', 'tenant-7f3a9c')
    ctx.db.$client.close()
  })
  afterAll(() => dir.remove())

  const job = { id: 'job_door', keptHeaders: ['x-tenant-token'] }

  test("reads the job's secret names, kept headers and values", () => {
    const ctx = context()
    try {
      const s = jobSecrets(ctx, job)
      expect([...s.names]).toEqual(['doorCode', 'x-tenant-token'])
      expect([...s.values].sort()).toEqual(['99-RED-42', 'tenant-7f3a9c'])
      expect(s.isSecret('doorcode')).toBe(true)
      expect(s.isSecret('X-Tenant-Token')).toBe(true)
      const hide = secretMasker(s, { code: 'x' })
      expect(hide({ doorCode: 'x', note: 'code 99-RED-42 for tenant-7f3a9c' })).toEqual({
        doorCode: MASK,
        note: `code ${MASK} for ${MASK}`,
      })
    } finally {
      ctx.db.$client.close()
    }
  })

  test('unreadable values (secrets.key gone) still mask by name and say so in the log', () => {
    rmSync(join(dir.path, SECRETS_KEY_FILE))
    const ctx = context()
    try {
      const s = jobSecrets(ctx, job)
      expect([...s.values]).toEqual([])
      expect(secretMasker(s)({ doorCode: '99-RED-42', name: 'Ada' })).toEqual({ doorCode: MASK, name: 'Ada' })
      expect(logs.join('')).toContain('job secrets unreadable')
      expect(logs.join('')).not.toContain('99-RED-42')
    } finally {
      ctx.db.$client.close()
    }
  })
})
