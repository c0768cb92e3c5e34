import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import net from 'node:net'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { AGENT_CLAIM_HEADER } from '../../src/protocol/messages.ts'
import {
  clientKey,
  MAX_PENDING_HELLOS,
  MAX_PENDING_HELLOS_PER_ADDRESS,
} from '../../src/runtime/agent-hub/pending-hellos.ts'
import { FakeAgent } from '../helpers/fake-agent.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Real servers, real sockets, a busy CI machine.
setDefaultTimeout(60_000)

// Issue 23 N1: the cap on sockets waiting for their hello was global, and the newcomer was the one
// refused: one client holding 16 sockets (re-opening each at the hello deadline) kept every agent
// out, and each refusal wrote a warning line (24,440 lines in 11 s).
let s: TestServer & { logs: string[] }
const desktops: { desktopId: string; secret: string }[] = []
const AGENTS = 10

beforeAll(async () => {
  s = await startTestServer({ helloTimeoutMs: 400, heartbeatIntervalMs: 60_000 })
  for (let i = 0; i < AGENTS; i++) {
    const r = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token }, {}, `desk-${i}`)
    desktops.push({ desktopId: r.desktopId, secret: r.secret })
    r.close()
  }
})
afterAll(() => s.close())

/**
 * An anonymous client: keeps `count` WebSocket upgrades open from `localAddress` without ever
 * saying hello, and opens a new one as soon as the server closes one (at the hello deadline, or to
 * make room), for as long as it runs.
 */
function holdSockets(localAddress: string, count: number, claim = '') {
  const { port } = new URL(s.url)
  const live = new Set<net.Socket>()
  let upgraded = 0
  let stopped = false
  const openOne = () => {
    if (stopped) return
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress })
    let seen = ''
    socket.on('connect', () =>
      socket.write(
        `GET /_agent/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
          (claim ? `${AGENT_CLAIM_HEADER}: ${claim}\r\n` : '') +
          '\r\n',
      ),
    )
    socket.on('data', (d) => {
      if (seen.includes('\r\n\r\n')) return
      seen += d.toString('latin1')
      if (seen.startsWith('HTTP/1.1 101')) {
        live.add(socket)
        upgraded++
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      live.delete(socket)
      openOne()
    })
  }
  for (let i = 0; i < count; i++) openOne()
  return {
    get live() {
      return live.size
    },
    get upgraded() {
      return upgraded
    },
    stop() {
      stopped = true
      for (const socket of live) socket.destroy()
    },
  }
}

async function until(what: string, check: () => boolean, withinMs = 10_000): Promise<void> {
  const end = Date.now() + withinMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`)
    await Bun.sleep(10)
  }
}

/**
 * A credentialed agent from 127.0.0.1, naming its credential on the upgrade as the real agent does
 * (src/agent/connection.ts): true when welcomed within 5 s, on its first connection.
 */
async function agentGetsIn(desktop: { desktopId: string; secret: string }): Promise<boolean> {
  const agent = new FakeAgent(s.url, desktop)
  try {
    const ended = agent.whenClosed().then(() => false)
    await Promise.race([agent.opened, ended])
    if (agent.closed) return false
    agent.hello({ kind: 'credential', ...desktop })
    return await Promise.race([
      agent.next('welcome').then(() => true),
      ended,
      Bun.sleep(5_000).then(() => false),
    ])
  } finally {
    agent.close()
  }
}

const capLines = () => s.logs.filter((l) => l.includes('waiting for their hello'))
const warnings = () => s.logs.filter((l) => (JSON.parse(l) as { level: number }).level >= 40)

describe('sockets that never say hello cannot keep agents out', () => {
  test('a client on the agents’ own address holding 16 sockets (the probe’s), re-opening each the moment it closes: every agent gets in', async () => {
    const before = capLines().length
    const warned = warnings().length
    // Twice its share: its own sockets close one another's all the time, and the hello deadline
    // (400 ms here) closes the rest, as in the probe.
    const attacker = holdSockets('127.0.0.1', 2 * MAX_PENDING_HELLOS_PER_ADDRESS)
    try {
      await until(
        'the client re-opens its sockets',
        () => attacker.upgraded >= 4 * MAX_PENDING_HELLOS_PER_ADDRESS,
      )
      const welcomed: boolean[] = []
      for (const desktop of desktops) welcomed.push(await agentGetsIn(desktop))
      expect(welcomed).toEqual(desktops.map(() => true))
    } finally {
      attacker.stop()
    }
    // One line at once for the first socket closed to make room, the rest counted into one line per interval.
    expect(capLines().length - before).toBeLessThanOrEqual(2)
    expect(warnings().length - warned).toBeLessThanOrEqual(2)
  })

  test('clients on other addresses, together past the global cap and re-opening at full speed: every agent gets in, and the log stays short', async () => {
    const before = capLines().length
    const warned = warnings().length
    // Five addresses, each more sockets than its share: they close one another's all the time.
    const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6']
    expect(addresses.length * MAX_PENDING_HELLOS_PER_ADDRESS).toBeGreaterThan(MAX_PENDING_HELLOS)
    const attackers = addresses.map((a) => holdSockets(a, MAX_PENDING_HELLOS_PER_ADDRESS + 2))
    try {
      await until('the clients churn through sockets', () => attackers.every((a) => a.upgraded > 50))
      const welcomed: boolean[] = []
      for (const desktop of desktops) welcomed.push(await agentGetsIn(desktop))
      expect(welcomed).toEqual(desktops.map(() => true))
      // Still churning after the last agent: the agents came in during the flood, not after it.
      const upgraded = attackers.reduce((n, a) => n + a.upgraded, 0)
      await until(
        'the clients keep re-opening',
        () => attackers.reduce((n, a) => n + a.upgraded, 0) > upgraded + 50,
      )
    } finally {
      for (const a of attackers) a.stop()
    }
    // Hundreds of sockets closed for room, yet at most the first line and one per interval.
    expect(capLines().length - before).toBeLessThanOrEqual(2)
    // Every request has its info line (the request log); no warning beyond those.
    expect(warnings().length - warned).toBeLessThanOrEqual(2)
  })
})

test('sockets naming a desktop with a wrong secret earn no share of their own: they wait among their address’s, and the agent still gets in', async () => {
  const [target, ...others] = desktops
  if (!target) throw new Error('no desktop enrolled')
  const attacker = holdSockets(
    '127.0.0.7',
    2 * MAX_PENDING_HELLOS_PER_ADDRESS,
    `${target.desktopId} not-its-secret`,
  )
  try {
    await until(
      'the client re-opens its sockets',
      () => attacker.upgraded >= 4 * MAX_PENDING_HELLOS_PER_ADDRESS,
    )
    expect(await agentGetsIn(target)).toBe(true)
    expect(await agentGetsIn(others[0] ?? target)).toBe(true)
  } finally {
    attacker.stop()
  }
  expect(s.logs.some((l) => l.includes('not-its-secret'))).toBe(false)
})

test('one client is an IPv4 address (also IPv4-mapped) or an IPv6 /64', () => {
  expect(clientKey('127.0.0.1')).toBe('127.0.0.1')
  expect(clientKey('::ffff:10.1.2.3')).toBe('10.1.2.3')
  expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
  expect(clientKey('2001:DB8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
  expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
  expect(clientKey('::1')).toBe('0:0:0:0::/64')
  expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
})
