import type { Command } from 'commander'
import { cliActor } from '../modules/audit/actor.ts'
import { requireJob } from '../modules/jobs/service.ts'
import {
  effectiveRetention,
  getJobRetention,
  parseRetentionAge,
  setJobRetention,
} from '../modules/retention/job-overrides.ts'
import { getRetention } from '../modules/retention/service.ts'
import { addSettingOptions, openCliContext, printJson, run } from './shared.ts'

/** `jobs retention METHOD PATH [--screenshots 7d] [--runs 30d]`: a job's own retention ages. */
export function registerJobRetention(jobs: Command): void {
  addSettingOptions(
    jobs
      .command('retention')
      .description(
        "show or set how long a job's step screenshots and finished runs are kept (default: the workspace setting)",
      )
      .argument('<method>', 'HTTP method the job is registered on, e.g. POST')
      .argument('<path>', 'the job path as registered, e.g. /customers/:id')
      .option(
        '--screenshots <age>',
        'keep step screenshots this long, e.g. 7d or 2w; "default" to follow the workspace',
      )
      .option('--runs <age>', 'keep finished runs this long, e.g. 30d; "default" to follow the workspace'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((method: string, path: string, opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        const job = requireJob(ctx, method.toUpperCase(), path)
        const change = {
          ...(opts.screenshots !== undefined && {
            screenshotDays: parseRetentionAge('--screenshots', opts.screenshots),
          }),
          ...(opts.runs !== undefined && { runDays: parseRetentionAge('--runs', opts.runs) }),
        }
        const own = Object.keys(change).length
          ? setJobRetention(ctx, job.id, change, cliActor())
          : getJobRetention(ctx, job.id)
        const workspace = getRetention(ctx)
        const inForce = effectiveRetention(workspace, own)
        if (opts.json) return printJson({ jobId: job.id, own, workspace, inForce })
        const line = (label: string, days: number, mine: boolean) =>
          `  ${label}: ${days} days${mine ? '' : ' (workspace setting)'}\n`
        process.stdout.write(
          `${job.method} ${job.path} keeps\n${line('step screenshots', inForce.screenshotDays, own.screenshotDays !== undefined)}${line('finished runs', inForce.runDays, own.runDays !== undefined)}` +
            'A running server applies it at its next retention pass (hourly).\n',
        )
      }),
    )
}
