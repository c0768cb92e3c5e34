import { closeSync, fsyncSync, openSync } from 'node:fs'

/**
 * fsync for the files and folders a backup or restore writes. A rename or a new file is durable
 * only once the folder that names it is synced too, so callers sync the file, then its folder.
 */
export interface Sync {
  file(path: string): void
  dir(path: string): void
}

/** Flushes a file's data to the disk ('r+': Windows flushes only a handle that may write). */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Flushes a folder's entries (names created, renamed or removed in it). Windows cannot open a
 * folder this way and commits its entries with the file system's own journal: skipped there.
 */
export function syncDir(path: string): void {
  if (process.platform === 'win32') return
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

export const fsyncs: Sync = { file: syncFile, dir: syncDir }
