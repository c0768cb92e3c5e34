import { type Command, InvalidArgumentError } from 'commander'
import { AppError } from '../lib/errors.ts'
import { cliActor } from '../modules/audit/actor.ts'
import { exportJob, type ImportResult, importJob } from '../modules/jobs/export-import.ts'
import { formatJobFile } from '../modules/jobs/job-file.ts'
import { addSettingOptions, openCliContext, printJson, run } from './shared.ts'

/** `jobs export` / `jobs import`: a job as a file, to move it between installations or keep it in git. */
export function registerJobFiles(jobs: Command): void {
  addSettingOptions(
    jobs
      .command('export')
      .description('write a job (prompt, samples, one automation version) as JSON to stdout')
      .argument('<method>', 'HTTP method the job is registered on, e.g. POST')
      .argument('<path>', 'the job path as registered, e.g. /customers/:id')
      .option(
        '--version <n>',
        'the version to export [default: the live version, else the newest]',
        positiveInt,
      ),
    ['dataDir'],
  ).action((method: string, path: string, opts) =>
    run(() => {
      const file = exportJob(openCliContext(opts), method.toUpperCase(), path, { version: opts.version })
      process.stdout.write(formatJobFile(file))
    }),
  )

  addSettingOptions(
    jobs
      .command('import')
      .description('create or update a job from an exported file; a running server serves it at once')
      .argument('<file>', 'the job file, or - to read it from stdin')
      .option('--live', 'make the imported version live (otherwise it is stored as the draft)')
      .option('--json', 'print JSON'),
    ['dataDir'],
  ).action((file: string, opts) =>
    run(async () => {
      const data = parseJson(await readSource(file), file === '-' ? 'stdin' : file)
      const result = importJob(openCliContext(opts), data, { live: Boolean(opts.live) }, cliActor())
      if (opts.json) return printJson(importView(result))
      process.stdout.write(`${describeImport(result)}\n`)
    }),
  )
}

function positiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a version number such as 3 is expected')
  return n
}

async function readSource(file: string): Promise<string> {
  if (file === '-') return Bun.stdin.text()
  try {
    return await Bun.file(file).text()
  } catch (err) {
    throw new AppError('INVALID_REQUEST', `Cannot read ${file}: ${(err as Error).message}`)
  }
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new AppError(
      'INVALID_JSON',
      `${source} is not JSON (${(err as Error).message}); expected a job file from \`deskhook jobs export\``,
    )
  }
}

function importView({ job, version, created, samplesAdded }: ImportResult) {
  return {
    jobId: job.id,
    method: job.method,
    path: job.path,
    version,
    created,
    samplesAdded,
    mode: job.mode,
    liveVersion: job.liveVersion,
    draftVersion: job.draftVersion,
  }
}

/** One line an admin can read in a deploy log: what changed, and what callers now get. */
function describeImport({ job, version, created, samplesAdded }: ImportResult): string {
  const plural = samplesAdded === 1 ? 'sample' : 'samples'
  const what = created ? `new job, ${samplesAdded} ${plural}` : `existing job, ${samplesAdded} new ${plural}`
  const route = `${job.method} ${job.path}`
  const state =
    job.liveVersion === version && job.mode === 'live'
      ? 'live'
      : job.mode === 'live'
        ? `still live on version ${job.liveVersion}; \`deskhook jobs promote ${route}\` switches`
        : `learning; \`deskhook jobs promote ${route}\` makes it live`
  return `Imported ${route} as version ${version} (${what}); ${state}`
}
