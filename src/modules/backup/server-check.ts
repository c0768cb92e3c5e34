import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The PID of the live deskhook server holding this data dir (its `deskhook.lock`, see
 * lib/data-dir-lock.ts), or undefined. Read-only: a check before any work, not the lock itself.
 */
export function serverUsing(dataDir: string): number | undefined {
  let pid: number
  try {
    pid = Number.parseInt(readFileSync(join(dataDir, 'deskhook.lock'), 'utf8').trim(), 10)
  } catch {
    return undefined
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: alive, owned by another user (the service account).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}
