import { afterAll, describe, expect, test } from 'bun:test'
import { X509Certificate } from 'node:crypto'
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import {
  certificateFingerprint,
  formatFingerprint,
  parseFingerprint,
  splitEnrollmentToken,
} from '../../src/lib/tls-pin.ts'
import { createEnrollmentToken, enrollDesktop } from '../../src/modules/desktops/service.ts'
import { createCertificateAuthority, issueServerCertificate } from '../../src/tls/certificates.ts'
import { readServedTls } from '../../src/tls/served-record.ts'
import {
  ensureLocalCertificates,
  loadAdminCertificate,
  watchCertificateEnd,
} from '../../src/tls/server-tls.ts'
import { eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'

const dirs: { remove(): void }[] = []
afterAll(() => {
  for (const d of dirs) d.remove()
})
const fresh = () => {
  const d = tempDir('deskhook-tls-')
  dirs.push(d)
  return d.path
}

/** A logger that keeps its lines, to assert on what an admin would read. */
function memoryLog() {
  const lines: Record<string, unknown>[] = []
  const destination = {
    write: (line: string) => lines.push(JSON.parse(line)) > 0,
  } as unknown as NodeJS.WritableStream
  return { log: createLogger({ level: 'info', format: 'json', destination }), lines }
}

const DAY = 86_400_000
const now = new Date('2026-03-01T12:00:00Z')
const config = (dataDir: string, extra: Record<string, string> = {}) =>
  loadConfig({ dataDir, tls: 'auto', host: '127.0.0.1', ...extra }, {})

describe('--tls auto: the local CA and the server certificate', () => {
  const dataDir = fresh()
  const { log, lines } = memoryLog()

  test('the first start makes both, owner-only, in <data>/tls', async () => {
    const tls = await ensureLocalCertificates(config(dataDir), log, now)
    const dir = join(dataDir, 'tls')
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    for (const file of ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'])
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600)
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.pem')))
    const server = new X509Certificate(readFileSync(join(dir, 'server.pem')))
    expect(ca.ca).toBe(true)
    expect(server.ca).toBe(false)
    expect(server.verify(ca.publicKey)).toBe(true)
    // The names agents may use: loopback, the machine's name, the listen address.
    expect(server.subjectAltName).toContain('DNS:localhost')
    expect(server.subjectAltName).toContain('IP Address:127.0.0.1')
    expect(server.subjectAltName).toContain(`DNS:${hostname().toLowerCase()}`)
    // Agents pin the CA; the chain sent to them ends with it.
    expect(tls.fingerprint).toBe(certificateFingerprint(ca.raw))
    expect(tls.cert.trim().endsWith(ca.toString().trim())).toBe(true)
    expect(lines.some((l) => l.msg === 'created a local certificate authority for TLS')).toBe(true)
  })

  test('a later start reuses both files as they are', async () => {
    const dir = join(dataDir, 'tls')
    const before = ['ca.pem', 'ca-key.pem', 'server.pem'].map((f) => readFileSync(join(dir, f), 'utf8'))
    const tls = await ensureLocalCertificates(config(dataDir), log, new Date(now.getTime() + 100 * DAY))
    const after = ['ca.pem', 'ca-key.pem', 'server.pem'].map((f) => readFileSync(join(dir, f), 'utf8'))
    expect(after).toEqual(before)
    expect(tls.cert.startsWith(before[2]!.trim())).toBe(true)
  })

  test('a new --public-url host gets a new server certificate from the same CA', async () => {
    const pin = certificateFingerprint(readFileSync(join(dataDir, 'tls', 'ca.pem'), 'utf8'))
    const tls = await ensureLocalCertificates(
      config(dataDir, { publicUrl: 'https://deskhook.corp.lan:8443' }),
      log,
      new Date(now.getTime() + 101 * DAY),
    )
    expect(tls.fingerprint).toBe(pin)
    const server = new X509Certificate(readFileSync(join(dataDir, 'tls', 'server.pem')))
    expect(server.subjectAltName).toContain('DNS:deskhook.corp.lan')
    expect(server.subject).toContain('CN=deskhook.corp.lan')
  })

  test('30 days before its end the server certificate is renewed; the CA (the pin) stays', async () => {
    const cfg = config(dataDir, { publicUrl: 'https://deskhook.corp.lan:8443' })
    const current = await ensureLocalCertificates(cfg, log, new Date(now.getTime() + 102 * DAY))
    const nearEnd = new Date(current.expiresAt.getTime() - 10 * DAY)
    const renewed = await ensureLocalCertificates(cfg, log, nearEnd)
    expect(renewed.fingerprint).toBe(current.fingerprint)
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(current.expiresAt.getTime())
    expect(
      lines.some((l) => l.msg === 'issued the server certificate' && l.reason === 'ends within 30 days'),
    ).toBe(true)
  })

  test('while the server runs, the daily check renews the files and asks for a restart', async () => {
    const cfg = config(dataDir)
    const served = await ensureLocalCertificates(cfg, log, now)
    const late = new Date(served.expiresAt.getTime() - 5 * DAY)
    const watch = watchCertificateEnd(cfg, log, served, () => late, 5)
    try {
      await eventually(async () =>
        lines.some((l) => String(l.msg).includes('restart deskhook serve to use it')),
      )
    } finally {
      watch.stop()
    }
    const onDisk = new X509Certificate(readFileSync(join(dataDir, 'tls', 'server.pem')))
    expect(onDisk.validToDate.getTime()).toBeGreaterThan(served.expiresAt.getTime())
  })

  test('a CA certificate without its key is never replaced silently', async () => {
    const other = fresh()
    await ensureLocalCertificates(config(other), log, now)
    rmSync(join(other, 'tls', 'ca-key.pem'))
    await expect(ensureLocalCertificates(config(other), log, now)).rejects.toThrow(/ca-key\.pem is missing/)
  })
})

describe("--tls-cert/--tls-key: the admin's own certificate", () => {
  const { log, lines } = memoryLog()

  async function adminFiles(chain: 'leaf+root' | 'leaf' | 'self-signed') {
    const dir = fresh()
    const root = await createCertificateAuthority(now, 'corp')
    const leaf =
      chain === 'self-signed'
        ? await createCertificateAuthority(now, 'self')
        : await issueServerCertificate(root, ['deskhook.corp.lan', '127.0.0.1'], now)
    const cert = chain === 'leaf+root' ? `${leaf.certPem}${root.certPem}` : leaf.certPem
    writeFileSync(join(dir, 'cert.pem'), cert)
    writeFileSync(join(dir, 'key.pem'), leaf.keyPem)
    return { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem'), root, leaf }
  }

  test('a chain that ends with its root: tokens pin the root', async () => {
    const f = await adminFiles('leaf+root')
    const tls = loadAdminCertificate(f.certFile, f.keyFile, log, now)
    expect(tls.mode).toBe('files')
    expect(tls.fingerprint).toBe(certificateFingerprint(f.root.certPem))
  })

  test('a self-signed certificate pins itself', async () => {
    const f = await adminFiles('self-signed')
    expect(loadAdminCertificate(f.certFile, f.keyFile, log, now).fingerprint).toBe(
      certificateFingerprint(f.leaf.certPem),
    )
  })

  test('a chain without its root: no pin, and the log says how to get one', async () => {
    const f = await adminFiles('leaf')
    expect(loadAdminCertificate(f.certFile, f.keyFile, log, now).fingerprint).toBeNull()
    expect(lines.some((l) => String(l.msg).includes('Append the CA certificate'))).toBe(true)
  })

  test('a key of another certificate, or a missing file, stops the start with the flag named', async () => {
    const a = await adminFiles('leaf+root')
    const b = await adminFiles('leaf')
    expect(() => loadAdminCertificate(a.certFile, b.keyFile, log, now)).toThrow(ConfigError)
    expect(() => loadAdminCertificate(a.certFile, b.keyFile, log, now)).toThrow(
      /--tls-key: .* is not the key/,
    )
    expect(() => loadAdminCertificate('/nonexistent/cert.pem', a.keyFile, log, now)).toThrow(
      /--tls-cert: cannot read/,
    )
  })
})

describe('configuration', () => {
  test('DESKHOOK_TLS, DESKHOOK_TLS_CERT and DESKHOOK_TLS_KEY mirror the flags', () => {
    expect(loadConfig({}, {}).tls).toBe('off')
    expect(loadConfig({}, { DESKHOOK_TLS: 'auto' }).tls).toBe('auto')
    const c = loadConfig({}, { DESKHOOK_TLS_CERT: 'c.pem', DESKHOOK_TLS_KEY: 'k.pem' })
    expect(c.tlsCert?.endsWith('/c.pem')).toBe(true)
    expect(c.tlsKey?.endsWith('/k.pem')).toBe(true)
  })

  test('settings that contradict each other are reported together', () => {
    const problems = (() => {
      try {
        loadConfig({ tls: 'auto', tlsCert: 'c.pem', publicUrl: 'http://dh.lan' }, { DESKHOOK_TLS: 'yes' })
      } catch (err) {
        return (err as ConfigError).problems.join('\n')
      }
      return ''
    })()
    expect(problems).toContain(
      '--tls-cert (DESKHOOK_TLS_CERT, from --tls-cert): needs --tls-cert and --tls-key both',
    )
    expect(problems).toContain('use either --tls auto or --tls-cert/--tls-key')
    expect(problems).toContain('--public-url (DESKHOOK_PUBLIC_URL, from --public-url): must be an https URL')
    expect(() => loadConfig({}, { DESKHOOK_TLS: 'yes' })).toThrow(
      /--tls \(DESKHOOK_TLS.*must be one of off, auto/,
    )
  })
})

describe('enrollment tokens', () => {
  test('fingerprints: stored as hex, shown in colon pairs, pasted either way', () => {
    const hex = 'ab'.repeat(32)
    expect(formatFingerprint(hex)).toBe(Array(32).fill('AB').join(':'))
    expect(parseFingerprint(formatFingerprint(hex))).toBe(hex)
    expect(parseFingerprint('xyz')).toBeNull()
    expect(splitEnrollmentToken('dhe_abc')).toEqual({ secret: 'dhe_abc' })
    expect(splitEnrollmentToken(`dhe_abc~${hex}`)).toEqual({ secret: 'dhe_abc', pin: hex })
    expect(splitEnrollmentToken('dhe_abc~12')).toEqual({ secret: 'dhe_abc', badPin: '12' })
  })

  test('a server on TLS listens with the CA chain and pins the CA in its tokens; bare tokens still enroll', async () => {
    const s = await startTestServer({ tls: 'auto' })
    try {
      expect(s.url.startsWith('https://127.0.0.1:')).toBe(true)
      const caPem = readFileSync(join(s.dataDir, 'tls', 'ca.pem'), 'utf8')
      const pin = certificateFingerprint(caPem)
      expect(readServedTls(s.dataDir)).toEqual({ mode: 'auto', fingerprint: pin })
      // Verified against the CA alone, for the address the server listens on.
      const res = await fetch(`${s.url}/_jobs`, { headers: { 'x-api-key': s.key }, tls: { ca: caPem } })
      expect(res.status).toBe(200)
      await expect(fetch(`${s.url}/_jobs`)).rejects.toThrow()

      const pinned = createEnrollmentToken(s.ctx)
      expect(pinned.fingerprint).toBe(pin)
      expect(pinned.token).toMatch(new RegExp(`^dhe_[0-9A-Za-z]{43}~${pin}$`))
      const who = { name: 'pc', platform: 'linux', driver: 'browser', agentVersion: 't' }
      // An agent that knows pins sends the secret; an older one the whole token: both enroll.
      expect(enrollDesktop(s.ctx, splitEnrollmentToken(pinned.token).secret, who).secret).toMatch(/^dhd_/)
      const whole = createEnrollmentToken(s.ctx)
      expect(enrollDesktop(s.ctx, whole.token, who).secret).toMatch(/^dhd_/)
    } finally {
      await s.close()
    }
  })

  test('a plain server makes bare tokens and forgets an earlier TLS start', async () => {
    const dataDir = fresh()
    const first = await startTestServer({ tls: 'auto' }, { dataDir })
    await first.stop()
    const s = await startTestServer({}, { dataDir })
    try {
      expect(s.url.startsWith('http://')).toBe(true)
      expect(readServedTls(dataDir)).toBeNull()
      const { token, fingerprint } = createEnrollmentToken(s.ctx)
      expect(fingerprint).toBeNull()
      expect(token).toMatch(/^dhe_[0-9A-Za-z]{43}$/)
    } finally {
      await s.stop()
    }
  })
})
