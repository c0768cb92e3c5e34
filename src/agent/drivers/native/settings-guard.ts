// A build's exploring must leave the app's saved settings as it found them (docs/builder.md, "Do
// no harm"): a toolbar hidden, a dialog's option ticked or a first-run file written while trying
// the app is put back when the build ends. The desktop user's settings folder (XDG_CONFIG_HOME,
// else ~/.config) is read when a build starts; when it ends, once the apps it started are closed
// as a person closes them (an app saves its settings when it quits), every file there of the apps
// the build started that was changed, removed or added is put back as it was. A file is an app's
// when a part of its path is named for it (its program's name or its process name, before any
// extension: `featherpad/featherpad.conf`, `Org/App.conf`); other apps' files (a browser's profile,
// a shared settings database) are never touched, since they may change while the build runs. Data
// files live elsewhere (XDG_DATA_HOME, the person's documents) and are the job's to change. Live runs are never guarded: what a person
// changes while using the app stays. Windows apps keep their settings in the registry, which is
// not guarded (docs/windows.md).
import {
  chmodSync,
  type Dirent,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'

/** A settings file larger than this is not read (nor put back): settings are small; caches are not. */
const MAX_FILE_BYTES = 1 << 20
/** At most this many files and bytes are kept; past either, what is unread is never touched. */
const MAX_FILES = 5_000
const MAX_TOTAL_BYTES = 64 << 20

interface KeptFile {
  bytes: Buffer
  mode: number
}

export interface SettingsSnapshot {
  root: string
  /** Path under the root → content and mode, as the build found them. */
  files: Map<string, KeptFile>
  dirs: Set<string>
  /** Paths seen but not kept (too large, a link, unreadable): never changed. */
  skipped: Set<string>
  /** Whether every file under the root was seen: only then is a file that appeared removed. */
  complete: boolean
}

export interface SettingsPutBack {
  /** Files written back as they were (changed or removed while the build explored). */
  restored: string[]
  /** Files that appeared while the build explored, removed again. */
  removed: string[]
}

/** The desktop user's settings folder, or undefined where settings are not files (Windows). */
export function settingsRoot(
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
): string | undefined {
  if (platform === 'win32') return undefined
  return env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config')
}

const entries = (dir: string): Dirent[] => {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  } catch {
    return []
  }
}

/** Reads the settings folder as it is now (within the limits above). */
export function readSettings(root: string): SettingsSnapshot {
  const snap: SettingsSnapshot = {
    root,
    files: new Map(),
    dirs: new Set(),
    skipped: new Set(),
    complete: true,
  }
  let total = 0
  const walk = (rel: string) => {
    for (const entry of entries(join(root, rel))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        snap.dirs.add(path)
        walk(path)
        continue
      }
      if (!entry.isFile()) {
        snap.skipped.add(path)
        continue
      }
      if (snap.files.size >= MAX_FILES || total >= MAX_TOTAL_BYTES) {
        snap.complete = false
        snap.skipped.add(path)
        continue
      }
      try {
        const stat = lstatSync(join(root, path))
        if (stat.size > MAX_FILE_BYTES) {
          snap.skipped.add(path)
          continue
        }
        const bytes = readFileSync(join(root, path))
        total += bytes.length
        snap.files.set(path, { bytes, mode: stat.mode & 0o7777 })
      } catch {
        snap.skipped.add(path)
      }
    }
  }
  walk('')
  return snap
}

/** A name as an app is known by: lower case, without folders or an extension (`/usr/bin/FeatherPad.exe` → `featherpad`). */
export const appWord = (name: string): string =>
  (name.split(/[\\/]/).pop() ?? '').replace(/\.[a-z0-9]{1,4}$/i, '').toLowerCase()

/** Whether a settings path belongs to one of these apps: a folder or file of it is named for one. */
export const belongsTo =
  (apps: ReadonlySet<string>) =>
  (path: string): boolean =>
    path.split('/').some((part) => apps.has(appWord(part)))

/**
 * Puts the apps' settings back as the snapshot found them: changed and removed files written, new
 * ones removed; only paths `ours` accepts.
 */
export function putBackSettings(before: SettingsSnapshot, ours: (path: string) => boolean): SettingsPutBack {
  const now = readSettings(before.root)
  const restored: string[] = []
  const removed: string[] = []
  for (const [path, kept] of before.files) {
    if (!ours(path)) continue
    const current = now.files.get(path)
    if (current?.bytes.equals(kept.bytes)) continue
    // Not read now (grown past the limits, or unreadable): left alone rather than guessed at.
    if (!current && now.skipped.has(path)) continue
    const target = join(before.root, path)
    try {
      mkdirSync(dirname(target), { recursive: true })
      // Written beside it and renamed over it, so a reader never sees half a settings file.
      const partial = `${target}.deskhook-${process.pid}`
      writeFileSync(partial, kept.bytes, { mode: kept.mode })
      chmodSync(partial, kept.mode)
      renameSync(partial, target)
      restored.push(path)
    } catch {
      // A folder the person made read-only: nothing more can be done, and nothing is lost by trying.
    }
  }
  if (before.complete) {
    for (const path of now.files.keys()) {
      if (!ours(path) || before.files.has(path) || before.skipped.has(path)) continue
      try {
        rmSync(join(before.root, path))
        removed.push(path)
      } catch {}
    }
    // Folders that appeared and are empty now, deepest first.
    const added = [...now.dirs].filter((d) => ours(d) && !before.dirs.has(d))
    for (const dir of added.sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(before.root, dir))
      } catch {}
    }
  }
  return { restored, removed }
}

/** A program file an interpreter runs (the app's own name, where the program is `python3` or `java`). */
const SCRIPT = /\.(py|pl|rb|js|jar|sh|exe)$/i

type AppNames = { executable?: string; args?: string[]; cwd?: string; processName?: string }

/** The names an app is known by: its program, its process name, the script an interpreter runs for it. */
const namesOf = (app: AppNames): string[] => {
  const script = app.args?.[0] && SCRIPT.test(app.args[0]) ? app.args[0] : undefined
  return [app.executable, app.processName, script].filter((n): n is string => !!n).map(appWord)
}

/** One build's guard over the settings folder: read as it starts, put back as it ends. */
export class ExploreSettings {
  #before: SettingsSnapshot | undefined
  /** The names of the apps started or attached to since the start (whose settings are put back). */
  readonly #apps = new Set<string>()
  /** Files under the folder that an app was started with: documents, never put back. */
  readonly #documents = new Set<string>()

  constructor(private readonly root: string | undefined) {}

  /** A build starts: the folder is read (once, until end()). Resolves whether and how many files are guarded. */
  start(): { guarded: boolean; files: number } {
    if (!this.root) return { guarded: false, files: 0 }
    if (!this.#before) {
      this.#before = readSettings(this.root)
      this.#apps.clear()
      this.#documents.clear()
    }
    return { guarded: true, files: this.#before.files.size }
  }

  /** An app the build starts or attaches to: its settings are among those put back (namesOf). */
  saw(app: AppNames): void {
    if (!this.#before) return
    for (const name of namesOf(app)) this.#apps.add(name)
    // A file the app is started with is the person's document (the job's to change), wherever it is.
    for (const arg of app.args ?? []) {
      const path = relative(this.root ?? '', resolve(app.cwd ?? '', arg))
      if (path && !path.startsWith('..') && !isAbsolute(path)) this.#documents.add(path)
    }
  }

  /**
   * The app was just closed for a fresh start, within a build: its settings are put back before it
   * starts again, so every try and verification begins where a live run will (a tab or panel it
   * remembered from exploring is not there on a live call).
   */
  reset(app: AppNames): SettingsPutBack {
    return this.#putBack(belongsTo(new Set(namesOf(app))))
  }

  /** The build ended: `close` closes its apps (they save as they quit), then their settings are put back. */
  async end(close: () => Promise<void>): Promise<SettingsPutBack> {
    if (!this.#before) return { restored: [], removed: [] }
    await close()
    const done = this.#putBack(belongsTo(new Set(this.#apps)))
    this.#before = undefined
    this.#apps.clear()
    this.#documents.clear()
    return done
  }

  #putBack(ours: (path: string) => boolean): SettingsPutBack {
    if (!this.#before) return { restored: [], removed: [] }
    const documents = this.#documents
    return putBackSettings(this.#before, (path) => ours(path) && !documents.has(path))
  }
}
