import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What the server last served, kept in the data dir (`tls/served.json`) so that commands run in
 * other processes (`deskhook desktops token`) put the same fingerprint in enrollment tokens as the
 * dashboard does, whatever flags the server was started with. No file: plain HTTP.
 */
export interface ServedTls {
  mode: 'auto' | 'files'
  /** SHA-256 (hex) of the certificate agents pin, or null when the chain has no root to pin. */
  fingerprint: string | null
}

export const tlsDir = (dataDir: string) => join(dataDir, 'tls')
const recordFile = (dataDir: string) => join(tlsDir(dataDir), 'served.json')

export function readServedTls(dataDir: string): ServedTls | null {
  const file = recordFile(dataDir)
  if (!existsSync(file)) return null
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as ServedTls
    return record.mode === 'auto' || record.mode === 'files' ? record : null
  } catch {
    return null
  }
}

/** Records this start's TLS (or its absence). */
export function writeServedTls(dataDir: string, served: ServedTls | null): void {
  const file = recordFile(dataDir)
  if (!served) return rmSync(file, { force: true })
  mkdirSync(tlsDir(dataDir), { recursive: true, mode: 0o700 })
  writeFileSync(`${file}.tmp`, `${JSON.stringify(served, null, 2)}\n`, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
}
