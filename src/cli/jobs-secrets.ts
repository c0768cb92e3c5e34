import type { Command } from 'commander'
import { AppError } from '../lib/errors.ts'
import { secretRoute } from '../modules/secrets/route-secrets.ts'
import {
  checkSecretName,
  listJobSecrets,
  MAX_SECRET_BYTES,
  removeJobSecret,
  setJobSecret,
} from '../modules/secrets/service.ts'
import { readHidden } from './prompt.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

const route = (cmd: Command) =>
  cmd
    .argument('<method>', 'HTTP method the job is registered on, e.g. POST')
    .argument('<path>', 'the job path as registered, e.g. /customers/:id')

/**
 * `jobs secret set|list|remove`: credentials a job signs in with, used in steps as
 * `{{$secrets.NAME}}`. The value comes from stdin or a prompt without echo, never from argv.
 */
export function registerJobSecrets(jobs: Command): void {
  const secret = jobs
    .command('secret')
    .description('credentials a job signs in with (encrypted at rest; steps use {{$secrets.NAME}})')

  addSettingOptions(
    route(
      secret
        .command('set')
        .description('store a secret for a job: the value is read from stdin, or typed without echo'),
    ).argument('<name>', 'e.g. username or password'),
    ['dataDir'],
  ).action((method: string, path: string, name: string, opts) =>
    run(async () => {
      checkSecretName(name)
      secretRoute(method, path) // a bad method or path is refused before asking for the value
      const ctx = openCliContext(opts)
      const value = await readValue(name)
      const { job, pending, replaced } = setJobSecret(ctx, method, path, name, value)
      process.stdout.write(
        `${replaced ? 'Replaced' : 'Stored'} secret "${name}" for ${job.method} ${job.path}; steps use it as {{$secrets.${name}}}.${
          pending
            ? ' No job is taught there yet: the first teaching call on that method and path gets it.'
            : ''
        }\n`,
      )
    }),
  )

  addSettingOptions(
    route(secret.command('list').description("list a job's secret names (never their values)")),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((method: string, path: string, opts) =>
      run(() => {
        const { job, pending, secrets } = listJobSecrets(openCliContext(opts), method, path)
        if (opts.json) return printJson({ secrets, pending })
        const none = pending ? 'has no job yet, and no secrets kept for one' : 'has no secrets'
        if (!secrets.length) return process.stdout.write(`${job.method} ${job.path} ${none}.\n`)
        printTable([['NAME', 'UPDATED'], ...secrets.map((s) => [s.name, s.updatedAt])])
      }),
    )

  addSettingOptions(
    route(secret.command('remove').description('delete a job secret')).argument('<name>', 'the secret name'),
    ['dataDir'],
  ).action((method: string, path: string, name: string, opts) =>
    run(() => {
      const { job } = removeJobSecret(openCliContext(opts), method, path, name)
      process.stdout.write(`Removed secret "${name}" from ${job.method} ${job.path}.\n`)
    }),
  )
}

async function readValue(name: string): Promise<string> {
  let value: string
  if (process.stdin.isTTY) value = await readHidden(`Value for ${name} (not shown): `)
  else {
    const bytes = await Bun.stdin.bytes()
    if (bytes.length > MAX_SECRET_BYTES + 2)
      throw new AppError('INVALID_REQUEST', `The secret value is longer than ${MAX_SECRET_BYTES} bytes`)
    // `printf %s "$PW" |` and `echo "$PW" |` must store the same value.
    value = new TextDecoder().decode(bytes).replace(/\r?\n$/, '')
  }
  if (!value)
    throw new AppError(
      'INVALID_REQUEST',
      'No value: pipe it on stdin (e.g. from a password manager) or type it at the prompt',
    )
  return value
}
