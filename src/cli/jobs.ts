import type { Command } from 'commander'
import { cliActor } from '../modules/audit/actor.ts'
import { demoteJob, listJobs, promoteJob } from '../modules/jobs/service.ts'
import { registerJobFiles } from './job-files.ts'
import { registerJobHousekeeping } from './jobs-housekeeping.ts'
import { registerJobRetention } from './jobs-retention.ts'
import { registerJobSecrets } from './jobs-secrets.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

export function registerJobs(program: Command): void {
  const jobs = program
    .command('jobs')
    .description(
      'list jobs, move them between learning and live, export and import them, remove samples, delete jobs, set their secrets and retention',
    )

  addSettingOptions(jobs.command('list').description('list jobs'), ['dataDir', 'publicUrl'])
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        const list = listJobs(ctx, ctx.config.publicUrl ?? '')
        if (opts.json) return printJson({ jobs: list })
        if (!list.length)
          return process.stdout.write(
            'No jobs yet. Teach one by calling its URL with a "deskhook" envelope.\n',
          )
        printTable([
          ['METHOD', 'PATH', 'MODE', 'SCORE', 'SAMPLES', 'LIVE', 'DRAFT'],
          ...list.map((j) => [
            j.method,
            j.path,
            j.mode,
            String(j.stabilityScore),
            String(j.scenarios.reduce((n, s) => n + s.samples, 0)),
            j.liveVersion === null ? '-' : `v${j.liveVersion}`,
            j.draftVersion === null ? '-' : `v${j.draftVersion}`,
          ]),
        ])
      }),
    )

  for (const [name, describe, act] of [
    [
      'promote',
      'make the newest successful build live (takes effect at once on a running server)',
      promoteJob,
    ],
    ['demote', 'send a live job back to learning (live calls get 409 until promoted again)', demoteJob],
  ] as const) {
    addSettingOptions(
      jobs
        .command(name)
        .description(describe)
        .argument('<method>', 'HTTP method the job is registered on, e.g. POST')
        .argument('<path>', 'the job path as registered, e.g. /customers/:id'),
      ['dataDir'],
    )
      .option('--json', 'print JSON')
      .action((method: string, path: string, opts) =>
        run(() => {
          const job = act(openCliContext(opts), method.toUpperCase(), path, cliActor())
          if (opts.json)
            return printJson({
              id: job.id,
              method: job.method,
              path: job.path,
              mode: job.mode,
              liveVersion: job.liveVersion,
            })
          process.stdout.write(`${job.method} ${job.path} is now ${job.mode}.\n`)
        }),
      )
  }
  registerJobFiles(jobs)
  registerJobHousekeeping(jobs)
  registerJobSecrets(jobs)
  registerJobRetention(jobs)
}
