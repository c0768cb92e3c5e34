import type { Command } from 'commander'
import { AppError } from '../lib/errors.ts'
import { cliActor } from '../modules/audit/actor.ts'
import { deleteJobByRoute, removeSampleByRoute } from '../modules/jobs/remove.ts'
import { requireJob } from '../modules/jobs/service.ts'
import { confirm } from './prompt.ts'
import { addSettingOptions, openCliContext, printJson, run } from './shared.ts'

const route = (cmd: Command) =>
  cmd
    .argument('<method>', 'HTTP method the job is registered on, e.g. POST')
    .argument('<path>', 'the job path as registered, e.g. /customers/:id')

/** `jobs remove-sample` and `jobs delete`: take back what teaching added. */
export function registerJobHousekeeping(jobs: Command): void {
  addSettingOptions(
    route(
      jobs
        .command('remove-sample')
        .description(
          'remove a sample (and its builds) from a job; the stability score is recomputed at once',
        ),
    ).argument('<sample-id>', 'the sampleId the teaching call answered with'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((method: string, path: string, sampleId: string, opts) =>
      run(() => {
        const removed = removeSampleByRoute(openCliContext(opts), method.toUpperCase(), path, sampleId)
        if (opts.json) return printJson(removed)
        process.stdout.write(
          `Removed sample ${sampleId} from ${method.toUpperCase()} ${path}; stability score now ${removed.stabilityScore}.\n`,
        )
      }),
    )

  addSettingOptions(
    route(
      jobs
        .command('delete')
        .description(
          'delete a job with its samples, versions, builds and secrets; its route stops answering at once',
        ),
    ).option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((method: string, path: string, opts) =>
      run(async () => {
        const ctx = openCliContext(opts)
        const job = requireJob(ctx, method, path)
        if (!opts.yes) {
          if (!process.stdin.isTTY)
            throw new AppError(
              'INVALID_REQUEST',
              `Deleting ${job.method} ${job.path} cannot be undone; add --yes to confirm`,
            )
          if (
            !(await confirm(`Delete ${job.method} ${job.path} with its samples, versions and builds? [y/N] `))
          )
            return process.stderr.write('Nothing deleted.\n')
        }
        const deleted = deleteJobByRoute(ctx, job.method, job.path, cliActor())
        if (opts.json) return printJson({ deleted })
        const runs = deleted.queuedRuns ? `; ${deleted.queuedRuns} queued run(s) will end cancelled` : ''
        process.stdout.write(
          `Deleted ${deleted.method} ${deleted.path} (${deleted.samples} sample(s), ${deleted.versions} version(s), ${deleted.builds} build(s))${runs}.\n`,
        )
      }),
    )
}
