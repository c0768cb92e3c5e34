// A build's exploring must leave the app's saved settings as it found them (docs/builder.md, "Do
// no harm"): a toolbar hidden, a dialog's option ticked or a first-run file written while trying
// the app is put back. An app's settings are the files in the desktop user's settings folder
// (XDG_CONFIG_HOME, else ~/.config) named for it, at the top or one folder down (`featherpad/…`,
// `keepassxc.ini`, `Org/App.conf`), by its program's or script's name (never an interpreter's or a
// generic word's). They are read the first time the build starts the app afresh, once the
// person's own instance was closed as a person closes it (it saves as it quits); every later fresh
// start in the build, and the build's end, put them back. An app whose folder holds a file too
// large to keep (a database, a browser profile) is left alone: half of a store put back is worse
// than none. Other apps' files are never touched, since they may change while the build runs. Live runs are never guarded: what a person
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

/** A settings file larger than this is not kept: the app's folder is then not put back at all. */
const MAX_FILE_BYTES = 1 << 20
/** At most this many files and bytes of one app; past either, the app is not put back. */
const MAX_FILES = 2_000
const MAX_TOTAL_BYTES = 16 << 20

interface KeptFile {
  bytes: Buffer
  mode: number
}

export interface SettingsSnapshot {
  root: string
  /** Path under the root → content and mode, as the build found them. */
  files: Map<string, KeptFile>
  dirs: Set<string>
  /** Whether every file of the app's was kept (none too large, a link, unreadable, or past the limits). */
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
  // A relative XDG_CONFIG_HOME is invalid and ignored (the XDG base directory spec).
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined
  return xdg ?? join(env.HOME || homedir(), '.config')
}

const entries = (dir: string): Dirent[] | undefined => {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined
  }
}

/** A name as an app is known by: lower case, without folders or an extension (`/usr/bin/FeatherPad.exe` → `featherpad`). */
export const appWord = (name: string): string =>
  (name.split(/[\\/]/).pop() ?? '').replace(/\.[a-z0-9]{1,4}$/i, '').toLowerCase()

/** Names that say nothing of which app it is: interpreters, wrappers, generic script names. */
const GENERIC =
  /^(python|perl|ruby|node|nodejs|java|mono|wine|sh|bash|env|electron|apprun|main|index|app|run|start|launcher)\d*$/

/** The app's files: top-level entries named for it, and entries named for it one folder down. */
export function readSettings(root: string, names: ReadonlySet<string>): SettingsSnapshot {
  const snap: SettingsSnapshot = { root, files: new Map(), dirs: new Set(), complete: true }
  let total = 0
  const keep = (path: string) => {
    const full = join(root, path)
    let stat: ReturnType<typeof lstatSync>
    try {
      stat = lstatSync(full)
    } catch {
      return
    }
    if (stat.isDirectory()) {
      snap.dirs.add(path)
      const list = entries(full)
      if (!list) snap.complete = false
      for (const entry of list ?? []) keep(`${path}/${entry.name}`)
      return
    }
    if (
      !stat.isFile() ||
      stat.size > MAX_FILE_BYTES ||
      snap.files.size >= MAX_FILES ||
      total >= MAX_TOTAL_BYTES
    ) {
      snap.complete = false
      return
    }
    try {
      const bytes = readFileSync(full)
      total += bytes.length
      snap.files.set(path, { bytes, mode: stat.mode & 0o7777 })
    } catch {
      snap.complete = false
    }
  }
  const named = (name: string) => names.has(appWord(name))
  for (const top of entries(root) ?? []) {
    if (named(top.name)) keep(top.name)
    else if (top.isDirectory())
      for (const inner of entries(join(root, top.name)) ?? [])
        if (named(inner.name)) keep(`${top.name}/${inner.name}`)
  }
  return snap
}

/** Whether no folder between the root and this path is a link (a write must not land outside the root). */
function plainPath(root: string, path: string): boolean {
  const parts = path.split('/').slice(0, -1)
  for (let i = 1; i <= parts.length; i++) {
    try {
      if (lstatSync(join(root, ...parts.slice(0, i))).isSymbolicLink()) return false
    } catch {
      return true
    }
  }
  return true
}

/** Puts the app's files back as the snapshot found them: changed and removed files written, new ones removed. */
export function putBackSettings(
  before: SettingsSnapshot,
  names: ReadonlySet<string>,
  documents: ReadonlySet<string> = new Set(),
): SettingsPutBack {
  const restored: string[] = []
  const removed: string[] = []
  if (!before.complete) return { restored, removed }
  const now = readSettings(before.root, names)
  // Grown past what can be kept (a store, not settings): left alone rather than half put back.
  if (!now.complete) return { restored, removed }
  const { root } = before
  for (const [path, kept] of before.files) {
    if (documents.has(path) || now.files.get(path)?.bytes.equals(kept.bytes) || !plainPath(root, path))
      continue
    const target = join(root, path)
    // Written beside it and renamed over it, so a reader never sees half a settings file.
    const partial = `${target}.deskhook-${process.pid}`
    try {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(partial, kept.bytes, { mode: kept.mode })
      chmodSync(partial, kept.mode)
      renameSync(partial, target)
      restored.push(path)
    } catch {
      // A folder the person made read-only: nothing more can be done, and nothing is lost by trying.
      rmSync(partial, { force: true })
    }
  }
  for (const path of now.files.keys()) {
    if (before.files.has(path) || documents.has(path) || !plainPath(root, path)) continue
    try {
      rmSync(join(root, path))
      removed.push(path)
    } catch {}
  }
  // Folders that appeared and are empty now, deepest first.
  const added = [...now.dirs].filter((d) => !before.dirs.has(d) && plainPath(root, d))
  for (const dir of added.sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(root, dir))
    } catch {}
  }
  return { restored, removed }
}

/** A program file an interpreter runs (the app's own name, where the program is `python3` or `java`). */
const SCRIPT = /\.(py|pl|rb|js|jar|sh|exe)$/i

export type AppNames = { executable?: string; args?: string[]; cwd?: string; processName?: string }

/** The names an app is known by: its program, its process name, the script an interpreter runs for it. */
export const namesOf = (app: AppNames): string[] => {
  const script = app.args?.[0] && SCRIPT.test(app.args[0]) ? app.args[0] : undefined
  return [app.executable, app.processName, script]
    .filter((n): n is string => !!n)
    .map(appWord)
    .filter((n) => n.length >= 3 && !GENERIC.test(n))
}

/** One build's guard over the apps' settings: each app's read at its first fresh start, put back after. */
export class ExploreSettings {
  #on = false
  /** Per app (its names): its settings as the build's first fresh start of it found them. */
  readonly #apps = new Map<string, { names: Set<string>; before: SettingsSnapshot }>()
  /** Files under the folder that an app was started with: documents, never put back. */
  readonly #documents = new Set<string>()

  constructor(private readonly root: string | undefined) {}

  get active(): boolean {
    return this.#on
  }

  /** A build starts: whatever an earlier build left is forgotten. Resolves whether settings can be guarded here. */
  start(): { guarded: boolean } {
    this.#on = !!this.root
    this.#apps.clear()
    this.#documents.clear()
    return { guarded: this.#on }
  }

  /**
   * The app was just closed for a fresh start within a build: the first time, its settings are
   * read (after the person's own instance saved as it quit); every later time they are put back,
   * so each try and verification begins where a live call will.
   */
  freshStart(app: AppNames): SettingsPutBack {
    const none = { restored: [], removed: [] }
    if (!this.#on || !this.root) return none
    // A file the app is started with is the person's document (the job's to change), wherever it is.
    for (const arg of app.args ?? []) {
      const path = relative(this.root, resolve(app.cwd ?? process.cwd(), arg))
      if (path && !path.startsWith('..') && !isAbsolute(path)) this.#documents.add(path)
    }
    const names = new Set(namesOf(app))
    if (!names.size) return none
    const key = [...names].sort().join(' ')
    const known = this.#apps.get(key)
    if (!known) {
      this.#apps.set(key, { names, before: readSettings(this.root, names) })
      return none
    }
    return putBackSettings(known.before, known.names, this.#documents)
  }

  /** The build ended: `close` closes its apps (they save as they quit), then their settings are put back. */
  async end(close: () => Promise<void>): Promise<SettingsPutBack> {
    const done: SettingsPutBack = { restored: [], removed: [] }
    if (!this.#on) return done
    this.#on = false
    await close()
    for (const { names, before } of this.#apps.values()) {
      const one = putBackSettings(before, names, this.#documents)
      done.restored.push(...one.restored)
      done.removed.push(...one.removed)
    }
    this.#apps.clear()
    this.#documents.clear()
    return done
  }
}
