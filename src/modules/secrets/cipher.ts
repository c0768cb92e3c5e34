import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const NONCE = 12
const TAG = 16

/** AES-256-GCM; `context` (job and name) is authenticated, so a value cannot be moved elsewhere. */
export function sealSecret(key: Buffer, value: string, context: string): Buffer {
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(Buffer.from(context))
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()])
  return Buffer.concat([nonce, cipher.getAuthTag(), data])
}

/** Throws when the key is not the one that sealed it, or the bytes were changed. */
export function openSecret(key: Buffer, sealed: Buffer, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE))
  decipher.setAAD(Buffer.from(context))
  decipher.setAuthTag(sealed.subarray(NONCE, NONCE + TAG))
  return Buffer.concat([decipher.update(sealed.subarray(NONCE + TAG)), decipher.final()]).toString('utf8')
}
