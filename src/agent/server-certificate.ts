import { type DetailedPeerCertificate, connect as tlsConnect } from 'node:tls'
import { certificateFingerprint, formatFingerprint } from '../lib/tls-pin.ts'

/**
 * Pinning, first half: before the agent's socket opens, one TLS handshake (nothing is sent over
 * it) reads the chain the server presents and looks for the pinned certificate in it. Found, that
 * certificate becomes the socket's only trusted root (Bun's WebSocket then verifies the chain and
 * the host name against it); not found, the agent refuses the server.
 */
export type PinCheck =
  | { ok: true; pem: string }
  /** `presented`: the fingerprint of the chain's top, the certificate a token would have pinned. */
  | { ok: false; presented: string }

export function checkPinnedCertificate(server: URL, pin: string, timeoutMs = 10_000): Promise<PinCheck> {
  const host = server.hostname.replace(/^\[|\]$/g, '')
  const isIp = /^[\d.]+$/.test(host) || host.includes(':')
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host,
      port: Number(server.port) || 443,
      // RFC 6066 names hosts, never addresses.
      ...(isIp ? {} : { servername: host }),
      // Verification is the WebSocket's job, against the pinned root found here.
      rejectUnauthorized: false,
    })
    const timer = setTimeout(
      () => socket.destroy(new Error(`no TLS handshake in ${timeoutMs} ms`)),
      timeoutMs,
    )
    socket.once('secureConnect', () => {
      clearTimeout(timer)
      const chain = presentedChain(socket.getPeerCertificate(true))
      socket.destroy()
      const pinned = chain.find((c) => certificateFingerprint(c) === pin)
      if (pinned) return resolve({ ok: true, pem: toPem(pinned) })
      const top = chain[chain.length - 1]
      resolve({ ok: false, presented: top ? certificateFingerprint(top) : 'nothing' })
    })
    socket.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })
}

export type PinSource = 'token' | 'enrollment' | 'flag'
const PIN_FROM: Record<PinSource, string> = {
  token: 'the enrollment token carries',
  enrollment: 'this agent was enrolled with',
  flag: '--server-fingerprint gives',
}

/** The refusal, naming both fingerprints so the admin can tell which certificate is which. */
export function pinMismatch(presented: string, pin: string, from: PinSource): string {
  const shown = /^[0-9a-f]{64}$/.test(presented) ? formatFingerprint(presented) : presented
  return (
    `the server presented a certificate with SHA-256 ${shown}; ${PIN_FROM[from]} ${formatFingerprint(pin)}. ` +
    'The server is refused and nothing was sent to it. If its certificate authority was replaced on purpose, ' +
    'enroll this desktop again with a token from `deskhook desktops token`'
  )
}

/** DER of each certificate in the chain, the server's own first, each once. */
function presentedChain(peer: DetailedPeerCertificate): Uint8Array[] {
  const chain: Uint8Array[] = []
  const seen = new Set<string>()
  let cert: DetailedPeerCertificate | undefined = peer
  while (cert?.raw?.length) {
    const fp = certificateFingerprint(cert.raw)
    // A root names itself as its issuer: the walk ends there.
    if (seen.has(fp)) break
    seen.add(fp)
    chain.push(cert.raw)
    cert = cert.issuerCertificate
  }
  return chain
}

const toPem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`
