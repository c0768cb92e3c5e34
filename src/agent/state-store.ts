import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { RunResult } from '../protocol/messages.ts'

export interface SavedCredential {
  server: string
  desktopId: string
  secret: string
  name: string
  /**
   * SHA-256 (hex) of the certificate the server's chain must hold (from the enrollment token);
   * absent for an agent enrolled over plain http or with an unpinned token.
   */
  pin?: string
}

/** Where an agent keeps its credential and journal: per user, never world-readable. */
export function defaultStateDir(): string {
  if (process.platform === 'win32')
    return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'deskhook', 'agent')
  return join(process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'deskhook', 'agent')
}

/**
 * The agent's files: `credential.json` (owner-only) and `journal/<runId>.json`, one file per run
 * result not yet acknowledged by the server, so a result survives a dropped connection and an
 * agent restart. Files are written to a temp name and renamed, so a crash leaves no half file.
 */
export class StateStore {
  readonly journalDir: string

  constructor(readonly dir: string) {
    this.journalDir = join(dir, 'journal')
    mkdirSync(this.journalDir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
  }

  loadCredential(server: string): SavedCredential | null {
    const file = join(this.dir, 'credential.json')
    if (!existsSync(file)) return null
    const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedCredential
    return sameServer(saved.server, server) ? saved : null
  }

  saveCredential(credential: SavedCredential): void {
    this.#writeAtomic(join(this.dir, 'credential.json'), JSON.stringify(credential, null, 2))
  }

  journal(result: RunResult): void {
    this.#writeAtomic(join(this.journalDir, `${safe(result.runId)}.json`), JSON.stringify(result))
  }

  acknowledge(runId: string): void {
    rmSync(join(this.journalDir, `${safe(runId)}.json`), { force: true })
  }

  pending(): RunResult[] {
    return readdirSync(this.journalDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(this.journalDir, f), 'utf8')) as RunResult)
  }

  #writeAtomic(file: string, text: string): void {
    const tmp = `${file}.tmp`
    writeFileSync(tmp, text, { mode: 0o600 })
    renameSync(tmp, file)
    chmodSync(file, 0o600)
  }
}

const safe = (id: string) => id.replace(/[^A-Za-z0-9-]/g, '_')
const sameServer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
