import type { Command } from 'commander'
import { createKey, listKeys, revokeKey } from '../modules/keys/service.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('create, list and revoke API keys')

  addSettingOptions(keys.command('create').description('create an API key (shown once)'), ['dataDir'])
    .requiredOption('--name <name>', 'a name that says who uses the key')
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        const key = createKey(ctx, opts.name)
        if (opts.json) return printJson(key)
        process.stdout.write(
          `Created API key "${key.name}" (id ${key.id}).\n\n  ${key.key}\n\nStore it now: deskhook keeps only a hash and cannot show it again.\n`,
        )
      }),
    )

  addSettingOptions(keys.command('list').description('list API keys (never their secrets)'), ['dataDir'])
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const list = listKeys(openCliContext(opts))
        if (opts.json) return printJson(list)
        if (!list.length) return process.stdout.write('No API keys.\n')
        printTable([
          ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'STATUS'],
          ...list.map((k) => [
            k.id,
            k.name,
            `${k.prefix}…`,
            k.createdAt,
            k.lastUsedAt ?? '-',
            k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
          ]),
        ])
      }),
    )

  addSettingOptions(
    keys
      .command('revoke')
      .description('revoke an API key at once')
      .argument('<id-or-prefix>', 'the key id, or the prefix `keys list` shows'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((idOrPrefix: string, opts) =>
      run(() => {
        const key = revokeKey(openCliContext(opts), idOrPrefix.replace(/…$/, ''))
        if (opts.json) return printJson(key)
        process.stdout.write(`Revoked API key "${key.name}" (${key.prefix}…).\n`)
      }),
    )
}
