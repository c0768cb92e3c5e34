import { join } from 'node:path'

/** A compiled deskhook runs from Bun's embedded file system, not from a source tree. */
export const isCompiled = () => Bun.main.startsWith('/$bunfs/') || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(Bun.main)

/**
 * The command that runs this same deskhook with other arguments: the binary itself when compiled,
 * else Bun with the source tree's entry point (never `Bun.main`, which is a test file under `bun test`).
 */
export function deskhookCommand(...args: string[]): string[] {
  return isCompiled()
    ? [process.execPath, ...args]
    : [process.execPath, join(import.meta.dir, '../main.ts'), ...args]
}
