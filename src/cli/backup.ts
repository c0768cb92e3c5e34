import { resolve } from 'node:path'
import type { Command } from 'commander'
import { loadConfig } from '../config/index.ts'
import { archiveName, createBackup } from '../modules/backup/create-backup.ts'
import { dataDirStatus } from '../modules/backup/data-dir-status.ts'
import type { ScheduledBackupRecord } from '../modules/backup/last-scheduled.ts'
import type { Progress } from '../modules/backup/progress.ts'
import { restoreBackup } from '../modules/backup/restore-backup.ts'
import { addSettingOptions, flagsFrom, printJson, printTable, run } from './shared.ts'

const toStderr: Progress = (message) => process.stderr.write(`${message}\n`)
const dataDirOf = (opts: Record<string, string | undefined>) => loadConfig(flagsFrom(opts)).dataDir

function bytesText(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  let v = n
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${units[i]}`
}

const byStatus = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ') || 'none'

/** The server's last scheduled backup: what it wrote, or when and why it failed (and the last that worked). */
function scheduledBackupRows(last: ScheduledBackupRecord | null): string[][] {
  if (!last) return [['last backup', 'none scheduled (serve --backup-dir)']]
  const done = (b: { at: string; file: string; bytes: number }) => `${b.at} ${b.file} (${bytesText(b.bytes)})`
  if (last.file) return [['last backup', done({ at: last.at, file: last.file, bytes: last.bytes ?? 0 })]]
  return [
    ['last backup', last.lastSuccess ? done(last.lastSuccess) : 'none written'],
    ['backup failed', `${last.at}: ${last.error}`],
  ]
}

/** `deskhook backup`, `deskhook restore`, `deskhook status`: the data dir as a whole. */
export function registerBackup(program: Command): void {
  addSettingOptions(
    program
      .command('backup')
      .description(
        'copy the database (consistent, while the server runs) and the screenshots it refers to into one gzipped tar file with a checksummed manifest. The archive holds the secrets key: keep it as safe as the server.',
      ),
    ['dataDir'],
  )
    .option('--out <file>', 'the archive to write [default deskhook-backup-<time>.tar.gz in the current dir]')
    .option('--json', 'print a JSON summary (progress still goes to stderr)')
    .action((opts) =>
      run(async () => {
        const summary = await createBackup({
          dataDir: dataDirOf(opts),
          out: resolve(opts.out ?? archiveName(new Date())),
          progress: toStderr,
        })
        if (opts.json) return printJson(summary)
        process.stdout.write(
          `Backed up to ${summary.archive} (${bytesText(summary.bytes)}, ${summary.durationMs} ms)\n` +
            `  as of ${summary.createdAt}: ${summary.counts.jobs} jobs (${summary.counts.jobVersions} versions), ${summary.counts.executions} runs (${byStatus(summary.counts.executionsByStatus)})\n` +
            `  files: database ${bytesText(summary.files.database)}, ${summary.files.screenshots} step screenshots, ${summary.files.recordings} recording screenshots, ${summary.files.config} settings files` +
            (summary.files.missing ? `; ${summary.files.missing} referenced files were already gone` : '') +
            '\n',
        )
      }),
    )

  addSettingOptions(
    program
      .command('restore')
      .description(
        'restore a `deskhook backup` archive (.tar.gz, or an older .tar) into a data dir no server is using; every checksum and the database are checked before anything is changed, and every restored file is synced to disk before it reports success',
      )
      .argument('<file>', 'the archive'),
    ['dataDir'],
  )
    .option(
      '--force',
      'replace a non-empty data dir (its contents are moved aside into .before-restore-<time>)',
    )
    .option(
      '--signing-key <file>',
      "the backup-signing.key of the data dir that made the archive, to check its signature [default: the target dir's own]",
    )
    .option(
      '--trust-unsigned',
      'restore an archive whose signature cannot be checked (unsigned, or its key is lost); one the key shows was changed is still refused',
    )
    .option('--json', 'print a JSON summary')
    .action((file: string, opts) =>
      run(async () => {
        const summary = await restoreBackup({
          archive: file,
          dataDir: dataDirOf(opts),
          force: Boolean(opts.force),
          signingKey: opts.signingKey,
          trustUnsigned: Boolean(opts.trustUnsigned),
          progress: toStderr,
        })
        if (opts.json) return printJson(summary)
        process.stdout.write(
          `Restored ${summary.archive} into ${summary.dataDir}\n` +
            `  backup of ${summary.backupCreatedAt} (deskhook ${summary.deskhookVersion}, schema level ${summary.schemaLevel})\n` +
            `  ${summary.counts.jobs} jobs (${summary.counts.jobVersions} versions), ${summary.counts.executions} runs (${byStatus(summary.counts.executionsByStatus)}), ${summary.counts.recordings} recordings\n` +
            `  files: database ${bytesText(summary.files.database)}, ${summary.files.screenshots} step screenshots, ${summary.files.recordings} recording screenshots, ${summary.files.config} settings files\n` +
            (summary.previousContents
              ? `  the dir's earlier contents are in ${summary.previousContents}\n`
              : '') +
            `Start the server with --data ${summary.dataDir}\n`,
        )
      }),
    )

  addSettingOptions(
    program
      .command('status')
      .description(
        "the data dir at a glance: database size, screenshot bytes, oldest run, counts, free disk space, the server's last scheduled backup",
      ),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((opts) =>
      run(async () => {
        const s = await dataDirStatus(dataDirOf(opts))
        if (opts.json) return printJson(s)
        printTable([
          ['data dir', s.dataDir],
          ['server', s.serverPid ? `running (PID ${s.serverPid})` : 'not running'],
          ['database', `${bytesText(s.databaseBytes)} (schema level ${s.schemaLevel})`],
          ['screenshots', `${bytesText(s.screenshots.bytes)} in ${s.screenshots.files} files`],
          ['oldest run', s.oldestRunAt ?? 'none'],
          ['jobs', `${s.counts.jobs} (${s.counts.jobVersions} versions)`],
          ['runs', `${s.counts.executions} (${byStatus(s.counts.executionsByStatus)})`],
          ['recordings', String(s.counts.recordings)],
          ['free disk', bytesText(s.freeBytes)],
          ...scheduledBackupRows(s.lastScheduledBackup),
        ])
      }),
    )
}
