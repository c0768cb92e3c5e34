import { type Command, InvalidArgumentError } from 'commander'
import { listAudit } from '../modules/audit/list.ts'
import { verifyAudit } from '../modules/audit/verify.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

function positiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('a number from 1 to 1000')
  return n
}

export function registerAudit(program: Command): void {
  const audit = addSettingOptions(
    program
      .command('audit')
      .description('who did what and when: promotions, desktops, keys, people, settings (newest first)'),
    ['dataDir'],
  )
    .option('--since <time>', 'only what happened at or after this date or time (e.g. 2026-11-01)')
    .option(
      '--action <action>',
      'only this action (job.promoted) or family (job, key, user, settings, audit…)',
    )
    .option('--limit <n>', 'at most this many rows (1–1000)', positiveInt, 100)
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const rows = listAudit(openCliContext(opts), {
          since: opts.since,
          action: opts.action,
          limit: opts.limit,
        })
        if (opts.json) return printJson({ entries: rows })
        if (!rows.length) return process.stdout.write('Nothing recorded yet.\n')
        printTable([
          ['ID', 'AT', 'ACTOR', 'ACTION', 'TARGET', 'DETAILS'],
          ...rows.map((r) => [
            String(r.id),
            r.at,
            `${r.actor.kind}:${r.actor.kind === 'cli' ? r.actor.id : r.actor.label}`,
            r.action,
            `${r.target.kind} ${r.target.id}`,
            JSON.stringify(r.details),
          ]),
        ])
      }),
    )

  addSettingOptions(
    audit
      .command('verify')
      .description("check the audit log's hash chain; exits 1 and names the first broken row if any"),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const verdict = verifyAudit(openCliContext(opts))
        if (opts.json) printJson(verdict)
        else if (verdict.ok)
          process.stdout.write(
            `The audit log is intact: ${verdict.rows} row(s)${verdict.firstId > 1 ? ` from row ${verdict.firstId} (older ones removed by --audit-days, recorded in row ${verdict.prunedBy})` : ''}, chain head ${verdict.lastHash}.\n` +
              'Keep a copy of the chain head elsewhere: a log rewritten later ends in another head, and every removal by --audit-days adds a row (deskhook audit --action audit lists them).\n',
          )
        else
          process.stdout.write(
            `The audit log is broken at row ${verdict.brokenAt}: ${verdict.reason}.\nRows before it are intact; from it on they cannot be trusted.\n`,
          )
        if (!verdict.ok) process.exitCode = 1
      }),
    )
}
