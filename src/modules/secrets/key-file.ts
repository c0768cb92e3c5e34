import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../lib/errors.ts'

/** The key that encrypts job secrets at rest: 32 random bytes, owner-only, beside the database. */
export const SECRETS_KEY_FILE = 'secrets.key'
const KEY_BYTES = 32

/**
 * Reads the data dir's secrets key, creating it (mode 0600) on first use. Creation is exclusive,
 * so a CLI and a server starting together end up with the same key, never two.
 */
export function loadSecretsKey(dataDir: string, create: boolean): Buffer | null {
  return loadKeyFile(join(dataDir, SECRETS_KEY_FILE), create, 'secrets key')
}

/**
 * A key file of 32 random bytes, owner-only (the secrets key, the backup signing key), created on
 * first use when `create` is set. Creation is exclusive, so two processes starting together end up
 * with the same key; one that finds it empty waits while the other writes it.
 */
export function loadKeyFile(file: string, create: boolean, what: string): Buffer | null {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const key = readFileSync(file)
      if (key.length === KEY_BYTES) return key
      // Another process is between creating and writing it.
      if (key.length === 0 && attempt < 49) {
        Bun.sleepSync(5)
        continue
      }
      throw new AppError(
        'INTERNAL',
        `${file} is not a deskhook ${what} (${key.length} bytes, expected ${KEY_BYTES})`,
      )
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    if (!create) return null
    try {
      const fd = openSync(file, 'wx', 0o600)
      try {
        writeSync(fd, randomBytes(KEY_BYTES))
      } finally {
        closeSync(fd)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  throw new AppError('INTERNAL', `Could not read ${file}`)
}
