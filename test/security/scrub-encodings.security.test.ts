import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { MASK, scrubSecrets } from '../../src/modules/secrets/scrub.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 23 N12: scrubbing matched exact values only, so a Base64, URL-encoded or upper-cased
// copy of a secret was stored readable.
setDefaultTimeout(30_000)

const SECRET = 'Heron/Saffron 62!x?'
const b64 = (s: string) => Buffer.from(s).toString('base64')
const COPIES: Record<string, string> = {
  upper: SECRET.toUpperCase(),
  lower: SECRET.toLowerCase(),
  base64: b64(SECRET),
  base64url: Buffer.from(SECRET).toString('base64url'),
  // Inside a longer blob, at each of the three byte offsets.
  basicAuth: `Basic ${b64(`ada:${SECRET}`)}`,
  offset1: b64(`x${SECRET}yz`),
  offset2: b64(`xy${SECRET}z`),
  uriComponent: encodeURIComponent(SECRET),
  lowerPercent: encodeURIComponent(SECRET).toLowerCase(),
  form: new URLSearchParams({ p: SECRET }).toString(),
  hex: Buffer.from(SECRET).toString('hex'),
  hexUpper: Buffer.from(SECRET).toString('hex').toUpperCase(),
}

/** What must be gone: the secret's text in any of the shapes above. */
function leaks(text: string): string[] {
  return Object.entries(COPIES)
    .filter(([name, copy]) => {
      const inner = name === 'basicAuth' ? copy.slice('Basic '.length) : copy
      return text.includes(name === 'form' ? inner.slice(2) : inner)
    })
    .map(([name]) => name)
}

describe('scrubSecrets catches common encodings of a secret', () => {
  test('every copy is masked', () => {
    const scrubbed = scrubSecrets(COPIES, [SECRET])
    expect(leaks(JSON.stringify(scrubbed))).toEqual([])
    for (const v of Object.values(scrubbed)) expect(v).toContain(MASK)
  })

  test('short secrets are masked exactly only: their encodings would match by chance', () => {
    const text = 'PIN 4711, MTIz, abc and ABC'
    expect(scrubSecrets(text, ['4711', 'abc'])).toBe(`PIN ${MASK}, MTIz, ${MASK} and ABC`)
    expect(scrubSecrets('nothing here', ['4711', SECRET])).toBe('nothing here')
  })

  test("a secret that is a plain word masks itself as written, never the app's own text in another case", () => {
    // A sign-in name "office" and a webmail titled "Office Webmail": the title is the app's text,
    // and a wait for it, or an answer holding it, must keep it (bench: Roundcube's list job).
    const title = 'Office Webmail :: Inbox (office)'
    expect(scrubSecrets(title, ['office'])).toBe(`Office Webmail :: Inbox (${MASK})`)
    expect(scrubSecrets('OFFICE', ['office'])).toBe('OFFICE')
    // Its encodings are still masked as written.
    expect(scrubSecrets(`token ${b64('office')}`, ['office'])).toBe(`token ${MASK}`)
    // A value that looks like a secret (digits, symbols, or long) is masked in any case.
    expect(scrubSecrets('OFFICE-MAIL-PASS-7', ['office-mail-pass-7'])).toBe(MASK)
    expect(scrubSecrets('CORRECT HORSE BATTERY', ['correct horse battery'])).toBe(MASK)
    // The steps a job keeps: only as written, whatever the value.
    expect(scrubSecrets(SECRET.toUpperCase(), [SECRET], 'exact')).toBe(SECRET.toUpperCase())
    expect(scrubSecrets(`wait for ${SECRET}`, [SECRET], 'exact')).toBe(`wait for ${MASK}`)
  })

  test('text that merely shares letters with the secret is left alone', () => {
    const value = { note: 'Heron and saffron are words', b: b64('unrelated text entirely') }
    expect(scrubSecrets(value, [SECRET])).toBe(value)
  })
})

describe('a run that echoes a secret in another form', () => {
  let s: TestServer
  let desk: FakeRunner
  beforeAll(async () => {
    s = await startTestServer()
    desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
  })
  afterAll(async () => {
    desk?.close()
    await s?.close()
  })

  test('stores and answers it masked', async () => {
    await liveJob(s, 'POST', '/encoded/echo')
    // The fake desktop runs automations only: keep the builder (the teaching call's build) off it.
    s.ctx.db.$client.run("UPDATE builds SET status = 'failed'")
    setJobSecret(s.ctx, 'POST', '/encoded/echo', 'password', SECRET)
    desk.behaviour = { outcome: () => ({ result: { copies: COPIES } }) }
    const res = await s.call('/encoded/echo', { method: 'POST', json: {} })
    expect(res.status).toBe(200)
    const answered = await res.text()
    expect(leaks(answered)).toEqual([])
    const stored = s.ctx.db.$client.query<{ result: string }, []>('SELECT result FROM executions').all()
    expect(stored).toHaveLength(1)
    expect(leaks(stored[0]!.result)).toEqual([])
  })
})
