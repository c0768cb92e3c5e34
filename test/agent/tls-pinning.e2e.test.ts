import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { certificateFingerprint, formatFingerprint } from '../../src/lib/tls-pin.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { createCertificateAuthority, issueServerCertificate } from '../../src/tls/certificates.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'

/** Real `deskhook serve --tls auto` processes and real agent processes (browser driver, Chromium). */
const dataA = tempDir('deskhook-tls-a-')
const dataB = tempDir('deskhook-tls-b-')
const servers: ServerProcess[] = []
const agents: AgentProcess[] = []
let a: ServerProcess
let port: number
let agent: AgentProcess
let pinA: string

const serve = async (dataDir: string, args: string[]) => {
  const s = await startServerProcess(dataDir, ['--heartbeat-interval', '1000', ...args])
  servers.push(s)
  return s
}
const stop = async (s: ServerProcess) => {
  s.proc.kill('SIGTERM')
  await s.proc.exited
}
const agentFor = (opts: Parameters<typeof startAgent>[0]) => {
  const started = startAgent(opts)
  agents.push(started)
  return started
}
const tokenFrom = async (dataDir: string) =>
  JSON.parse((await cli(['desktops', 'token', '--json', '--data', dataDir])).stdout) as {
    token: string
    fingerprint: string | null
  }
const caFingerprint = (dataDir: string) =>
  certificateFingerprint(readFileSync(join(dataDir, 'tls', 'ca.pem'), 'utf8'))
const count = (p: AgentProcess, text: string) => p.lines.filter((l) => l.includes(text)).length
/** Whether an agent ever reached the server's HTTP layer (its access log names every request). */
const agentRequests = (s: ServerProcess) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.includes('"/_agent/ws"'))

beforeAll(async () => {
  a = await serve(dataA.path, ['--tls', 'auto'])
  port = Number(new URL(a.url).port)
  pinA = caFingerprint(dataA.path)
}, 30_000)

afterAll(async () => {
  for (const p of agents) await p.cleanup()
  for (const s of servers) if (s.proc.exitCode === null) await stop(s)
  dataA.remove()
  dataB.remove()
})

describe('deskhook serve --tls auto', () => {
  test('listens on https with a CA and certificate in the data dir, owner-only', () => {
    expect(a.url).toStartWith('https://127.0.0.1:')
    for (const file of ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'])
      expect(statSync(join(dataA.path, 'tls', file)).mode & 0o777).toBe(0o600)
    expect(a.output()).toContain(`"pinned":"${formatFingerprint(pinA)}"`)
  })

  test('`deskhook desktops token` pins the CA: dhe_<secret>~<sha256>, and an https command', async () => {
    const json = await tokenFrom(dataA.path)
    expect(json.fingerprint).toBe(pinA)
    expect(json.token).toBe(`${json.token.split('~')[0]}~${pinA}`)
    const human = await cli(['desktops', 'token', '--data', dataA.path])
    expect(human.stdout).toContain(formatFingerprint(pinA))
    expect(human.stdout).toMatch(/deskhook agent --server https:\/\/\S+ --token dhe_\w+~[0-9a-f]{64}\n/)
  })

  test('an agent enrolls over wss with the pinned token, comes online and keeps the pin', async () => {
    const { token } = await tokenFrom(dataA.path)
    agent = agentFor({ server: a.url, token, name: 'tls-desk' })
    await agent.waitForLog((l) => l.msg === 'online')
    const saved = JSON.parse(readFileSync(join(agent.stateDir, 'credential.json'), 'utf8'))
    expect(saved.pin).toBe(pinA)
    expect(count(agent, 'not encrypted')).toBe(0)
    // The positive control for the refusals below: a connecting agent shows in the access log.
    await eventually(async () => agentRequests(a).length > 0)
  }, 30_000)

  test('a restart reuses the CA and the certificate; the agent comes back online', async () => {
    const files = ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem']
    const before = files.map((f) => readFileSync(join(dataA.path, 'tls', f), 'utf8'))
    await stop(a)
    a = await serve(dataA.path, ['--tls', 'auto', '--port', String(port)])
    expect(files.map((f) => readFileSync(join(dataA.path, 'tls', f), 'utf8'))).toEqual(before)
    await eventually(async () => count(agent, '"msg":"online"') >= 2, 20_000)
  }, 30_000)

  test('another server with its own CA at the same URL is refused, and gets no credential', async () => {
    await stop(a)
    const b = await serve(dataB.path, ['--tls', 'auto', '--port', String(port)])
    const pinB = caFingerprint(dataB.path)
    expect(pinB).not.toBe(pinA)
    expect(await agent.exited).toBe(1)
    expect(agent.lines.join('\n')).toContain(
      `the server presented a certificate with SHA-256 ${formatFingerprint(pinB)}; ` +
        `this agent was enrolled with ${formatFingerprint(pinA)}`,
    )
    // The handshake failed before any HTTP: no hello, so no credential, ever reached server B.
    expect(agentRequests(b)).toEqual([])

    // A token whose fingerprint was altered (here: A's) is refused before it is spent …
    const { token } = await tokenFrom(dataB.path)
    const altered = agentFor({ server: b.url, token: `${token.split('~')[0]}~${pinA}` })
    expect(await altered.exited).toBe(1)
    expect(altered.lines.join('\n')).toContain(
      `the server presented a certificate with SHA-256 ${formatFingerprint(pinB)}; ` +
        `the enrollment token carries ${formatFingerprint(pinA)}`,
    )
    expect(agentRequests(b)).toEqual([])
    // … so the genuine token still enrolls.
    const genuine = agentFor({ server: b.url, token })
    await genuine.waitForLog((l) => l.msg === 'online')
    await stop(b)
  }, 60_000)
})

describe('other ways to serve', () => {
  test('plain http still works, and the agent warns once per start that it is not encrypted', async () => {
    const s = await startTestServer({ heartbeatIntervalMs: 1000 })
    try {
      const { token } = createEnrollmentToken(s.ctx)
      expect(token).not.toContain('~')
      const plain = agentFor({ server: s.url, token })
      await plain.waitForLog((l) => l.msg === 'online')
      expect(count(plain, 'the connection to the server is not encrypted')).toBe(1)
    } finally {
      await s.close()
    }
  }, 30_000)

  test("--tls-cert/--tls-key: the admin's certificate, its root at the end of the file, is pinned", async () => {
    const dir = tempDir('deskhook-tls-admin-')
    try {
      const now = new Date()
      const root = await createCertificateAuthority(now, 'corp')
      const leaf = await issueServerCertificate(root, ['localhost', '127.0.0.1'], now)
      writeFileSync(join(dir.path, 'chain.pem'), `${leaf.certPem}${root.certPem}`)
      writeFileSync(join(dir.path, 'key.pem'), leaf.keyPem, { mode: 0o600 })
      const data = join(dir.path, 'data')
      const s = await serve(data, [
        '--tls-cert',
        join(dir.path, 'chain.pem'),
        '--tls-key',
        join(dir.path, 'key.pem'),
      ])
      expect(s.url).toStartWith('https://')
      const { token, fingerprint } = await tokenFrom(data)
      expect(fingerprint).toBe(certificateFingerprint(root.certPem))
      const own = agentFor({ server: s.url, token })
      await own.waitForLog((l) => l.msg === 'online')
      await stop(s)
    } finally {
      dir.remove()
    }
  }, 30_000)
})
