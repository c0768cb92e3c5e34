import { createPrivateKey, X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { hostname, networkInterfaces } from 'node:os'
import { join } from 'node:path'
import ipaddr from 'ipaddr.js'
import { type Config, ConfigError } from '../config/index.ts'
import type { Logger } from '../lib/logger.ts'
import { certificateFingerprint, formatFingerprint } from '../lib/tls-pin.ts'
import {
  createCertificateAuthority,
  isIpAddress,
  issueServerCertificate,
  type PemPair,
} from './certificates.ts'
import { tlsDir } from './served-record.ts'

/** What Bun.serve listens with, and what agents pin. */
export interface ServerTls {
  mode: 'auto' | 'files'
  /** The chain sent to clients: the server certificate first. */
  cert: string
  key: string
  /** SHA-256 (hex) of the certificate agents pin; null when the admin's chain has no root to pin. */
  fingerprint: string | null
  expiresAt: Date
}

const DAY_MS = 86_400_000
/** A server certificate with less left than this is replaced (at start, or by the daily check). */
export const RENEW_BEFORE_MS = 30 * DAY_MS

/** The TLS the config asks for, or null for plain HTTP. */
export async function loadServerTls(config: Config, log: Logger, now: Date): Promise<ServerTls | null> {
  if (config.tls === 'auto') return ensureLocalCertificates(config, log, now)
  if (config.tlsCert && config.tlsKey) return loadAdminCertificate(config.tlsCert, config.tlsKey, log, now)
  return null
}

/**
 * `--tls auto`: the CA is made once and kept (agents pin it); the server certificate it signs is
 * made again when missing, near its end, signed by another CA, or short of a name the server now
 * answers to. Files are owner-only, in `<data>/tls/`.
 */
export async function ensureLocalCertificates(config: Config, log: Logger, now: Date): Promise<ServerTls> {
  const dir = tlsDir(config.dataDir)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  let ca = readPair(dir, 'ca')
  if (!ca) {
    ca = await createCertificateAuthority(now, hostname())
    writePair(dir, 'ca', ca)
    log.info(
      { fingerprint: formatFingerprint(certificateFingerprint(ca.certPem)), dir },
      'created a local certificate authority for TLS',
    )
  }
  const names = certificateNames(config)
  let server = readPair(dir, 'server')
  const why = server ? renewalReason(server, ca, names, now) : 'none yet'
  if (why || !server) {
    server = await issueServerCertificate(ca, names, now)
    writePair(dir, 'server', server)
    log.info({ reason: why, names }, 'issued the server certificate')
  }
  const caCert = new X509Certificate(ca.certPem)
  if (caCert.validToDate.getTime() - now.getTime() < 90 * DAY_MS)
    log.warn(
      { expiresAt: caCert.validToDate.toISOString(), dir },
      'the local certificate authority ends soon: agents enrolled with it must be enrolled again after it is replaced (delete the tls dir and restart)',
    )
  return {
    mode: 'auto',
    cert: `${server.certPem.trim()}\n${ca.certPem.trim()}\n`,
    key: server.keyPem,
    fingerprint: certificateFingerprint(ca.certPem),
    expiresAt: new X509Certificate(server.certPem).validToDate,
  }
}

/** Why the server certificate must be made again, or null when it can stay. */
export function renewalReason(server: PemPair, ca: PemPair, names: string[], now: Date): string | null {
  const cert = new X509Certificate(server.certPem)
  const caCert = new X509Certificate(ca.certPem)
  if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) return 'not signed by the CA'
  if (!cert.checkPrivateKey(createPrivateKey(server.keyPem))) return 'the key does not match'
  if (cert.validToDate.getTime() - now.getTime() < RENEW_BEFORE_MS) return 'ends within 30 days'
  if (cert.validFromDate.getTime() > now.getTime()) return 'not valid yet'
  const has = new Set(sanEntries(cert))
  const missing = names.filter((n) => !has.has(normalName(n)))
  return missing.length ? `new names: ${missing.join(', ')}` : null
}

/**
 * The names agents may use for this server: the host of `--public-url`, the listen address, the
 * machine's name and its LAN addresses, and loopback. The agent checks the name like a browser.
 */
export function certificateNames(config: Config): string[] {
  // First the names people use (the first becomes the certificate's common name), loopback last.
  const names = new Set<string>()
  const add = (name: string | undefined) => {
    const n = name?.replace(/^\[|\]$/g, '').toLowerCase()
    if (n && n !== '0.0.0.0' && n !== '::') names.add(n)
  }
  if (config.publicUrl) add(new URL(config.publicUrl).hostname)
  add(config.host)
  add(hostname())
  // Link-local IPv6 needs a zone to be used at all: no agent connects by it.
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? [])
      if (!entry.internal && !entry.address.toLowerCase().startsWith('fe80:')) add(entry.address)
  for (const loopback of ['localhost', '127.0.0.1', '::1']) add(loopback)
  return [...names]
}

/** The admin's own chain and key (`--tls-cert/--tls-key`), checked so a mistake fails at start. */
export function loadAdminCertificate(certFile: string, keyFile: string, log: Logger, now: Date): ServerTls {
  const cert = readOrFail(certFile, '--tls-cert')
  const key = readOrFail(keyFile, '--tls-key')
  const chain = (cert.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map(
    (pem) => new X509Certificate(pem),
  )
  const leaf = chain[0]
  if (!leaf) throw new ConfigError([`--tls-cert: ${certFile} holds no PEM certificate`])
  let privateKey: ReturnType<typeof createPrivateKey>
  try {
    privateKey = createPrivateKey(key)
  } catch (err) {
    throw new ConfigError([`--tls-key: ${keyFile} is not a PEM private key (${(err as Error).message})`])
  }
  if (!leaf.checkPrivateKey(privateKey))
    throw new ConfigError([`--tls-key: ${keyFile} is not the key of the first certificate in ${certFile}`])
  if (leaf.validToDate.getTime() < now.getTime() + RENEW_BEFORE_MS)
    log.warn(
      { expiresAt: leaf.validToDate.toISOString(), certFile },
      'the TLS certificate ends soon or has ended',
    )
  // The pin is the chain's root when the file carries it (a CA of the admin's, or a self-signed
  // server certificate): agents then trust that root alone, for the names the certificate holds.
  const top = chain[chain.length - 1]!
  const selfSigned = top.checkIssued(top) && top.verify(top.publicKey)
  const fingerprint = selfSigned ? certificateFingerprint(top.raw) : null
  if (!fingerprint)
    log.info(
      { certFile },
      'the --tls-cert chain does not end with its root certificate: enrollment tokens carry no fingerprint, ' +
        'and agents check the server against the roots they trust. Append the CA certificate to the file to have agents pin it',
    )
  // The chain as parsed, one PEM block a line apart, whatever the file's spacing.
  const sent = chain.map((c) => c.toString().trim()).join('\n')
  return { mode: 'files', cert: `${sent}\n`, key, fingerprint, expiresAt: leaf.validToDate }
}

function readOrFail(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new ConfigError([`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? err})`])
  }
}

function readPair(dir: string, name: 'ca' | 'server'): PemPair | null {
  const certFile = join(dir, `${name}.pem`)
  const keyFile = join(dir, `${name}-key.pem`)
  // The certificate is written last: a key alone is a start that never finished (made again).
  if (!existsSync(certFile)) return null
  if (!existsSync(keyFile)) {
    // A server certificate is simply made again; the CA never silently, since agents pin it.
    if (name === 'server') return null
    throw new ConfigError([
      `--tls auto: ${keyFile} is missing. Restore it, or delete ${dir} to make a new CA (every agent must then be enrolled again)`,
    ])
  }
  // Owner-only, even if someone loosened them.
  for (const file of [certFile, keyFile]) chmodSync(file, 0o600)
  return { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') }
}

function writePair(dir: string, name: 'ca' | 'server', pair: PemPair): void {
  // Key first: a crash between the two leaves a key without its certificate, made again next time.
  writeOwnerOnly(join(dir, `${name}-key.pem`), pair.keyPem)
  writeOwnerOnly(join(dir, `${name}.pem`), pair.certPem)
}

function writeOwnerOnly(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text, { mode: 0o600 })
  chmodSync(`${file}.tmp`, 0o600)
  renameSync(`${file}.tmp`, file)
}

function sanEntries(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .map((e) => e.replace(/^(DNS|IP Address):/, ''))
    .map(normalName)
}

function normalName(name: string): string {
  return isIpAddress(name) ? ipaddr.parse(name).toNormalizedString() : name.toLowerCase()
}

/**
 * While the server runs: near the end of the certificate it listens with, `--tls auto` writes a
 * new one to the data dir, and the log asks for a restart (Bun cannot swap the certificate of a
 * listening server); the admin's own certificate gets the warning alone. Checked twice a day.
 */
export function watchCertificateEnd(
  config: Config,
  log: Logger,
  served: ServerTls,
  now: () => Date,
  everyMs = DAY_MS / 2,
): { stop(): void } {
  let renewed = false
  const check = async () => {
    try {
      if (served.expiresAt.getTime() - now().getTime() >= RENEW_BEFORE_MS) return
      if (served.mode === 'auto' && !renewed) {
        await ensureLocalCertificates(config, log, now())
        renewed = true
      }
      log.warn(
        { expiresAt: served.expiresAt.toISOString(), renewed },
        renewed
          ? 'the TLS certificate in use ends soon; a new one is in the data dir: restart deskhook serve to use it'
          : 'the TLS certificate in use ends soon: replace the --tls-cert file and restart deskhook serve',
      )
    } catch (err) {
      log.error({ err }, 'could not renew the TLS certificate')
    }
  }
  const timer = setInterval(() => void check(), everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
