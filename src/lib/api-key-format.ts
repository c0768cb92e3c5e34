import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import baseX from 'base-x'

/**
 * API keys look like `dh_<43 base62 chars of 32 random bytes><6 base62 chars of CRC32>` (GitHub's
 * token format): a recognisable prefix for secret scanners, and a checksum that rejects typos and
 * random guesses without touching the database.
 */
const base62 = baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
export const KEY_PREFIX = 'dh_'
const SECRET_CHARS = 43
const CHECKSUM_CHARS = 6
const KEY_SHAPE = /^dh_[0-9A-Za-z]{49}$/

function checksum(secret: string): string {
  return base62
    .encode(Buffer.from(Bun.hash.crc32(secret).toString(16).padStart(8, '0'), 'hex'))
    .padStart(CHECKSUM_CHARS, '0')
}

export function generateApiKey(): string {
  let secret = base62.encode(randomBytes(32))
  // base62 of 32 bytes is 42 or 43 characters; pad so every key has one length.
  secret = secret.padStart(SECRET_CHARS, '0')
  return `${KEY_PREFIX}${secret}${checksum(secret)}`
}

/** A one-time or per-desktop secret: a prefix and 256 random bits (enrollment tokens, agent credentials). */
export function generateSecret(prefix: string): string {
  return `${prefix}${base62.encode(randomBytes(32)).padStart(SECRET_CHARS, '0')}`
}

/** Cheap structural check: shape and checksum. No I/O, so bad keys cost almost nothing. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_SHAPE.test(key)) return false
  const secret = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + SECRET_CHARS)
  return key.slice(KEY_PREFIX.length + SECRET_CHARS) === checksum(secret)
}

/**
 * Keys carry 256 random bits, so a fast SHA-256 is enough (no slow password hash per request):
 * a leaked hash cannot be reversed, and presenting the hash itself fails the shape check.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/** What lists show: enough to recognise a key, never enough to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6)
}
