import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config/index.ts'
import type { AppContext } from '../../src/context.ts'
import { AppError } from '../../src/lib/errors.ts'
import { type Lookup, validateCallbackUrl } from '../../src/modules/webhooks/callback-url.ts'
import { enqueueStatusEvent, listDeliveries } from '../../src/modules/webhooks/service.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { type Canary, startCanary } from '../helpers/webhook-receiver.ts'

/** A public address used for validation only: no test ever sends traffic to it. */
const PUBLIC = '93.184.216.34'
/** The rebinding resolver's second answer: the delivery-time lookup points at loopback. */
const rebinding: Lookup = async () => ['127.0.0.1']

let s: TestServer
let canary: Canary

beforeAll(async () => {
  canary = startCanary()
  // No allow-list: the defaults under test.
  s = await startTestServer({}, { webhooks: { lookup: rebinding, retryDelayMs: 20 } })
})
afterAll(async () => {
  await s.close()
  canary.stop()
})

const withAllow = (allow: string): AppContext => ({
  ...s.ctx,
  config: loadConfig({ callbackAllow: allow }, {}),
})

async function refusal(ctx: AppContext, url: string, lookup?: Lookup): Promise<AppError> {
  try {
    await validateCallbackUrl(ctx, url, { lookup })
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error(`${url} was accepted`)
}

const P = () => canary.port
/** RELIABILITY P8's table, aimed at the canary wherever a port can be given. */
const REFUSED = () => [
  `http://127.0.0.1:${P()}/`,
  `http://[::1]:${P()}/`,
  `http://0.0.0.0:${P()}/`,
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  `http://[::ffff:127.0.0.1]:${P()}/`,
  // Issue 9 item 14: the deprecated IPv4-compatible form and anything else inside ::/96.
  `http://[::127.0.0.1]:${P()}/`,
  'http://[::8.8.8.8]/',
  'http://[::a9fe:a9fe]/',
  `http://2130706433:${P()}/`,
  `http://0177.0.0.1:${P()}/`,
  `http://0x7f.1:${P()}/`,
  `http://localhost:${P()}/`,
  `ftp://${PUBLIC}/events`,
  `http://user:pw@${PUBLIC}/events`,
  'http://10.1.2.3/',
  'http://192.168.1.20/',
  'http://100.64.0.9/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://224.0.0.1/',
  'http://[64:ff9b::7f00:1]/',
  'not a url',
]

describe('callback_url validation (RELIABILITY P8)', () => {
  test('refuses every loopback, link-local, private, odd-spelling and non-http URL with 400', async () => {
    for (const url of REFUSED()) {
      const err = await refusal(s.ctx, url)
      expect({ url, code: err.code, status: err.status }).toEqual({
        url,
        code: 'INVALID_CALLBACK_URL',
        status: 400,
      })
    }
    expect(canary.connections()).toBe(0)
  })

  test('says why, and how to allow a LAN receiver', async () => {
    const err = await refusal(s.ctx, `http://2130706433:${P()}/`)
    expect(err.message).toContain('127.0.0.1 is a loopback address')
    expect(err.message).toContain('--callback-allow')
    expect((await refusal(s.ctx, `http://[::127.0.0.1]:${P()}/`)).message).toContain('IPv4-compatible IPv6')
    expect((await refusal(s.ctx, `http://localhost:${P()}/`)).message).toContain(
      'localhost resolves to 127.0.0.1',
    )
  })

  test('accepts a public address, and a name all of whose addresses are public', async () => {
    expect((await validateCallbackUrl(s.ctx, `https://${PUBLIC}/hook`)).href).toBe(`https://${PUBLIC}/hook`)
    const publicName: Lookup = async () => [PUBLIC]
    expect(
      await validateCallbackUrl(s.ctx, 'https://hooks.example.com/x', { lookup: publicName }),
    ).toBeInstanceOf(URL)
    const mixed: Lookup = async () => [PUBLIC, '10.0.0.5']
    expect((await refusal(s.ctx, 'https://hooks.example.com/x', mixed)).message).toContain('10.0.0.5')
  })

  test('the allow-list opens exactly its CIDRs, never unspecified or multicast addresses', async () => {
    await validateCallbackUrl(withAllow('127.0.0.1/32'), `http://127.0.0.1:${P()}/`)
    await validateCallbackUrl(withAllow('10.0.0.0/8'), 'http://10.1.2.3/')
    await refusal(withAllow('10.0.0.0/8'), 'http://192.168.1.20/')
    await refusal(withAllow('127.0.0.1/32'), `http://[::1]:${P()}/`)
    await refusal(withAllow('0.0.0.0/0'), `http://0.0.0.0:${P()}/`)
    await refusal(withAllow('0.0.0.0/0'), 'http://224.0.0.1/')
  })
})

describe('at delivery time', () => {
  test('refused URLs that reached the outbox are never connected to (checked again, rebinding included)', async () => {
    const jobExecutionId = crypto.randomUUID()
    // Passed validation when a public answer came back; the deliverer's lookup now says 127.0.0.1.
    await validateCallbackUrl(s.ctx, `http://rebind.test:${P()}/`, { lookup: async () => [PUBLIC] })
    const urls = [`http://rebind.test:${P()}/`, ...REFUSED()]
    s.ctx.db.transaction((tx) => {
      for (const url of urls)
        enqueueStatusEvent(tx, {
          url,
          jobExecutionId,
          executionId: 1,
          eventType: 'execution_started',
          payload: {},
        })
    })
    s.webhooks.notify()
    const rows = await eventually(async () => {
      const all = listDeliveries(s.ctx, jobExecutionId)
      return all.length === urls.length && all.every((d) => d.status === 'failed') ? all : undefined
    })
    expect(rows[0]!.lastError).toContain('rebind.test resolves to 127.0.0.1')
    expect(rows.every((d) => d.attempts === 1 && d.lastStatusCode === null)).toBe(true)
    expect(canary.connections()).toBe(0)
  })
})
