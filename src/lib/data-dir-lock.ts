// One server per data dir. Two servers on one SQLite file would each take calls and only one
// would have the desktops: calls accepted by the other would wait for a restart. The lock is a
// file holding the owner's PID, created exclusively; a file left by a process that is gone is
// taken over.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export class DataDirLocked extends Error {
  override readonly name = 'DataDirLocked'
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data dir ${dir} is in use by another deskhook server (PID ${pid}). Stop that server first, or start this one with another --data.`,
    )
  }
}

/** The data dir cannot be made or written: one line saying which and what is needed. */
export class DataDirUnusable extends Error {
  override readonly name = 'DataDirUnusable'
  constructor(
    readonly dir: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException).code
    const why =
      code === 'ENOTDIR'
        ? 'part of its path is a file, not a directory'
        : code === 'EROFS'
          ? 'it is on a read-only file system'
          : code === 'ENOSPC'
            ? 'the disk is full'
            : code === 'EACCES' || code === 'EPERM'
              ? 'permission denied'
              : (cause as Error).message
    super(
      `cannot use the data dir ${dir}: ${why}. The user running deskhook needs to create it and to read, write and enter it (rwx); choose another with --data or DESKHOOK_DATA_DIR.`,
    )
  }
}

const UNUSABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC', 'EISDIR', 'ELOOP', 'ENAMETOOLONG'])

/** Whether an error from making or writing in the data dir is one of the dir's own (not a bug). */
export function isDataDirProblem(error: unknown): boolean {
  return UNUSABLE.has((error as NodeJS.ErrnoException)?.code ?? '')
}

/** Dirs this process holds (a second server started in the same process is refused too). */
const held = new Set<string>()

export function lockDataDir(dir: string): { release(): void } {
  const path = join(dir, 'deskhook.lock')
  if (held.has(path)) throw new DataDirLocked(dir, process.pid)
  // A first start creates the data dir (the database would, a moment later).
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw isDataDirProblem(error) ? new DataDirUnusable(dir, error) : error
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644)
      writeSync(fd, `${process.pid}\n`)
      closeSync(fd)
      held.add(path)
      return {
        release() {
          if (!held.delete(path)) return
          try {
            if (ownerOf(path) === process.pid) unlinkSync(path)
          } catch {
            // Already gone: nothing to release.
          }
        },
      }
    } catch (error) {
      if (isDataDirProblem(error)) throw new DataDirUnusable(dir, error)
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = ownerOf(path)
      if (owner !== undefined && owner !== process.pid && alive(owner)) throw new DataDirLocked(dir, owner)
      // Left by a server that is gone (or unreadable): take it over.
      try {
        unlinkSync(path)
      } catch {
        // Someone else took it over first; the next attempt sees theirs.
      }
    }
  }
  throw new DataDirLocked(dir, ownerOf(path) ?? -1)
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
