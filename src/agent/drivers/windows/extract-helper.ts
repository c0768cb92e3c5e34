// The helper exe travels inside the agent and runs from the agent's state dir: written there at
// start, and rewritten whenever its SHA-256 differs from the embedded one (an upgraded agent, a
// damaged or tampered file), so the agent never runs a helper it did not bring.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const UIA_HELPER_NAME = 'uia-helper.exe'

/** Copies the helper at `source` to `<stateDir>/helpers/uia/` unless it is there already; returns its path. */
export function extractUiaHelper(stateDir: string, source: string): string {
  const bytes = readFileSync(source)
  const hash = sha256(bytes)
  const dir = join(stateDir, 'helpers', 'uia')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = join(dir, UIA_HELPER_NAME)
  if (matches(path, hash)) return path
  try {
    write(path, bytes)
    return path
  } catch (error) {
    // Windows keeps a running exe's file locked: a helper left over from another agent process
    // still runs from it. This agent's helper then goes beside it, named after its hash.
    const aside = join(dir, `uia-helper-${hash.slice(0, 12)}.exe`)
    if (matches(aside, hash)) return aside
    try {
      write(aside, bytes)
    } catch {
      throw new Error(`Cannot write the UI Automation helper to ${dir}: ${(error as Error).message}`)
    }
    return aside
  }
}

function matches(path: string, hash: string): boolean {
  return existsSync(path) && sha256(readFileSync(path)) === hash
}

/** Written aside and renamed: a helper starting meanwhile never runs half a file. */
function write(path: string, bytes: Uint8Array): void {
  const temp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temp, bytes, { mode: 0o700 })
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
