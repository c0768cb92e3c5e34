// The manifest's signature (issue 23): the checksums in manifest.json catch damage, but anyone can
// recompute them after changing a file. The HMAC below can only be made with the data dir's
// backup signing key, which is never put into an archive. (The secrets key cannot serve: it travels
// inside the archive, so whoever holds the archive could sign with it.)
import { createHmac, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { loadKeyFile } from '../secrets/key-file.ts'

export const SIGNING_KEY_FILE = 'backup-signing.key'
export const SIGNATURE_NAME = 'manifest.sig'
const KEY_BYTES = 32

export const Signature = Type.Object({
  alg: Type.Literal('HMAC-SHA256'),
  /** Names the key (not derived from anything an archive holds), so a wrong key is told apart from a change. */
  keyId: Type.String({ pattern: '^[0-9a-f]{16}$' }),
  mac: Type.String({ pattern: '^[0-9a-f]{64}$' }),
})
export type Signature = Static<typeof Signature>

const keyId = (key: Buffer) =>
  createHmac('sha256', key).update('deskhook backup key id').digest('hex').slice(0, 16)
const mac = (key: Buffer, manifest: Buffer) =>
  createHmac('sha256', key).update('deskhook backup manifest v1\n').update(manifest).digest()

/** The data dir's signing key, made (0600, exclusively) on its first backup. */
export function signingKey(dataDir: string): Buffer {
  return loadKeyFile(join(dataDir, SIGNING_KEY_FILE), true, 'backup signing key')!
}

/** A key file as given to `restore --signing-key`; throws a one-line reason when it is not one. */
export function readKeyFile(file: string): Buffer {
  const key = readFileSync(file)
  if (key.length !== KEY_BYTES)
    throw new Error(
      `${file} is not a deskhook backup signing key (${key.length} bytes, expected ${KEY_BYTES})`,
    )
  return key
}

export function sign(key: Buffer, manifest: Buffer): Buffer {
  const signature: Signature = {
    alg: 'HMAC-SHA256',
    keyId: keyId(key),
    mac: mac(key, manifest).toString('hex'),
  }
  return Buffer.from(`${JSON.stringify(signature)}\n`)
}

export function parseSignature(text: string): Signature | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return Value.Check(Signature, value) ? value : undefined
  } catch {
    return undefined
  }
}

/** `valid`, `other-key` (signed, but with a key that is not this one) or `changed`. */
export function check(
  key: Buffer,
  manifest: Buffer,
  signature: Signature,
): 'valid' | 'other-key' | 'changed' {
  if (signature.keyId !== keyId(key)) return 'other-key'
  return timingSafeEqual(mac(key, manifest), Buffer.from(signature.mac, 'hex')) ? 'valid' : 'changed'
}

export const describeKey = (key: Buffer) => keyId(key)
