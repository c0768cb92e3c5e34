// What a command says when it fails for a reason that is not its own (issue 23, N14): one line
// naming what happened and what to do, never a stack (DESKHOOK_DEBUG=1 adds it).

/** Errno codes of the file system and network, in words, each with what to do. */
const SYSTEM: Record<string, string> = {
  ENOSPC: 'the disk is full: free some space (or choose another place) and try again',
  EDQUOT: 'the disk quota is used up: free some space (or choose another place) and try again',
  EACCES: 'permission denied: run deskhook as a user who may read and write there, or choose another place',
  EPERM:
    'operation not permitted: run deskhook as a user who may read and write there, or choose another place',
  EROFS: 'it is on a read-only file system: choose another place',
  ENOENT: 'no such file or directory: check the path',
  ENOTDIR: 'part of the path is a file, not a directory: check the path',
  EISDIR: 'it is a directory, where a file was expected: name a file',
  EEXIST: 'it exists already: choose another name',
  EIO: 'the disk reported an input/output error: check the disk (dmesg) and try again',
}

/** SQLite's result codes that mean the file or disk, not deskhook. */
const SQLITE: Record<string, string> = {
  SQLITE_FULL: 'the disk holding the data dir is full: free some space and try again',
  SQLITE_CORRUPT:
    'the database is damaged: restore your last backup (deskhook restore <archive> --data <dir> --force)',
  SQLITE_NOTADB:
    'the database file is not a SQLite database: restore your last backup (deskhook restore <archive> --data <dir> --force)',
  SQLITE_IOERR: 'the disk reported an input/output error: check the disk (dmesg) and try again',
  SQLITE_READONLY: 'the database cannot be written: check the data dir’s permissions and free space',
  SQLITE_CANTOPEN: 'the database cannot be opened: check that the data dir exists and may be written',
  SQLITE_BUSY: 'the database stayed locked by another process: try again when it is done',
}

/** One line for an error no command handles itself, or undefined when it is a bug (a stack helps). */
export function failureText(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException
  const code = typeof e?.code === 'string' ? e.code : ''
  const sqlite = Object.keys(SQLITE).find((c) => code === c || code.startsWith(`${c}_`))
  if (sqlite) return `${SQLITE[sqlite]} (${code})`
  const system = SYSTEM[code]
  if (system) return `${e.path ? `${e.path}: ` : ''}${system} (${code})`
  return undefined
}
