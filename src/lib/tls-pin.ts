import { createHash, X509Certificate } from 'node:crypto'

/**
 * Certificate pinning shared by the server (which puts a fingerprint in enrollment tokens) and
 * the agent (which accepts a server only if its chain holds that certificate). A fingerprint is
 * the SHA-256 of the certificate's DER bytes: 64 lower-case hex digits here, colon-separated
 * upper-case pairs where people read it (as browsers and `openssl x509 -fingerprint` show it).
 */
const HEX64 = /^[0-9a-f]{64}$/

/** The fingerprint of one certificate, given as DER bytes or PEM text. */
export function certificateFingerprint(cert: Uint8Array | string): string {
  const der = typeof cert === 'string' ? new X509Certificate(cert).raw : cert
  return createHash('sha256').update(der).digest('hex')
}

/** `AB:CD:…`, the form people compare. */
export const formatFingerprint = (hex: string): string => hex.toUpperCase().match(/../g)!.join(':')

/** A fingerprint as people paste it (colons, spaces, either case) in its stored form, or null. */
export function parseFingerprint(input: string): string | null {
  const hex = input.replace(/[\s:]/g, '').toLowerCase()
  return HEX64.test(hex) ? hex : null
}

/**
 * Enrollment tokens are `dhe_<secret>`, or `dhe_<secret>~<fingerprint>` when the server serves TLS.
 * Only the secret is the credential: the server hashes it alone, so a pinned token works with an
 * agent that knows no pins and a bare token stays valid.
 */
export const PIN_SEPARATOR = '~'

export function pinnedToken(token: string, fingerprint: string | null | undefined): string {
  return fingerprint ? `${token}${PIN_SEPARATOR}${fingerprint}` : token
}

export interface EnrollmentTokenParts {
  secret: string
  /** The fingerprint the server's certificate chain must hold; absent for a bare token. */
  pin?: string
  /** The part after `~` when it is no fingerprint (a mangled copy): say so rather than ignore it. */
  badPin?: string
}

export function splitEnrollmentToken(token: string): EnrollmentTokenParts {
  const at = token.indexOf(PIN_SEPARATOR)
  if (at < 0) return { secret: token }
  const secret = token.slice(0, at)
  const raw = token.slice(at + 1)
  const pin = parseFingerprint(raw)
  return pin ? { secret, pin } : { secret, badPin: raw }
}
