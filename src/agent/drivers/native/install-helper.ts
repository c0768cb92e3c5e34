// A native helper ships inside the agent (text modules, embedded by `bun build --compile`) and is
// written to the agent's state dir before it runs. Files are rewritten only when their content
// changed (compared by SHA-256), so an upgraded agent never runs an older agent's helper.
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Writes `files` (name → content) to `<stateDir>/helpers/<name>/`; returns that folder. */
export function installHelper(
  stateDir: string,
  name: string,
  files: Readonly<Record<string, string>>,
): string {
  const dir = join(stateDir, 'helpers', name)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  for (const [fileName, content] of Object.entries(files)) {
    const path = join(dir, fileName)
    if (existsSync(path) && sha256(readFileSync(path, 'utf8')) === sha256(content)) continue
    // Written aside and renamed: a helper starting meanwhile never reads half a file.
    const temp = `${path}.${process.pid}.tmp`
    writeFileSync(temp, content, { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, path)
  }
  return dir
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
