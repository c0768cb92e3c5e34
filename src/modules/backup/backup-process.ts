import { deskhookCommand } from '../../lib/compiled.ts'
import type { BackupSummary } from './create-backup.ts'

/**
 * `deskhook backup --json` in a child process. `VACUUM INTO` and the integrity check of the copy
 * are synchronous SQLite calls: inside the server they would stop every call for seconds on a
 * large database (2.7 s at 100,000 runs), so the server's scheduled backup makes them elsewhere.
 */
export async function createBackupInChildProcess(opts: {
  dataDir: string
  out: string
}): Promise<BackupSummary> {
  const child = Bun.spawn(deskhookCommand('backup', '--data', opts.dataDir, '--out', opts.out, '--json'), {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  if (code !== 0) {
    const reason = err
      .trim()
      .split('\n')
      .filter(Boolean)
      .at(-1)
      ?.replace(/^error: /, '')
    throw new Error(reason ?? `deskhook backup exited with code ${code}`)
  }
  return JSON.parse(out) as BackupSummary
}
