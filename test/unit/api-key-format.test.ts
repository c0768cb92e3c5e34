import { expect, test } from 'bun:test'
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  sameHash,
} from '../../src/lib/api-key-format.ts'

test('keys have the dh_ prefix, one length, and a checksum that catches any single change', () => {
  const keys = Array.from({ length: 200 }, generateApiKey)
  expect(new Set(keys).size).toBe(200)
  for (const k of keys) {
    expect(k).toMatch(/^dh_[0-9A-Za-z]{49}$/)
    expect(isWellFormedApiKey(k)).toBe(true)
  }
  const k = keys[0]!
  for (let i = 3; i < k.length; i++) {
    const swapped = k.slice(0, i) + (k[i] === 'a' ? 'b' : 'a') + k.slice(i + 1)
    expect(isWellFormedApiKey(swapped)).toBe(false)
  }
  expect(isWellFormedApiKey(`xx_${k.slice(3)}`)).toBe(false)
  expect(displayPrefix(k)).toBe(k.slice(0, 9))
})

test('hashes compare in constant time and only equal for the same key', () => {
  const a = generateApiKey()
  expect(sameHash(hashApiKey(a), hashApiKey(a))).toBe(true)
  expect(sameHash(hashApiKey(a), hashApiKey(generateApiKey()))).toBe(false)
  expect(sameHash(hashApiKey(a), new Uint8Array(3))).toBe(false)
})
