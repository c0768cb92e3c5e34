import type { Command } from 'commander'
import { formatFingerprint } from '../lib/tls-pin.ts'
import { cliActor } from '../modules/audit/actor.ts'
import {
  createEnrollmentToken,
  listDesktops,
  MAX_TOKEN_TTL_MS,
  revokeDesktop,
} from '../modules/desktops/service.ts'
import { drives } from '../protocol/driver.ts'
import { readServedTls } from '../tls/served-record.ts'
import { addSettingOptions, openCliContext, printJson, printTable, run } from './shared.ts'

export function registerDesktops(program: Command): void {
  const desktops = program
    .command('desktops')
    .description('enroll, list and revoke desktops (machines running the agent)')

  addSettingOptions(
    desktops.command('token').description('print a one-time enrollment token for a new agent'),
    ['dataDir', 'publicUrl'],
  )
    .option('--ttl <minutes>', 'minutes until the token expires (1–60)', '60')
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        const minutes = Number(opts.ttl)
        const { token, expiresAt, fingerprint } = createEnrollmentToken(
          ctx,
          Number.isFinite(minutes) ? Math.round(minutes * 60_000) : MAX_TOKEN_TTL_MS * 2,
        )
        if (opts.json) return printJson({ token, expiresAt, fingerprint })
        const served = readServedTls(ctx.config.dataDir)
        const server = ctx.config.publicUrl ?? `${served ? 'https' : 'http'}://<this-server>:8080`
        const pin = fingerprint
          ? `The token carries the SHA-256 fingerprint of the server's ${served?.mode === 'auto' ? 'CA' : 'root'} certificate,\n` +
            `which the agent pins:\n\n  ${formatFingerprint(fingerprint)}\n\n`
          : ''
        process.stdout.write(
          `Enrollment token (single use, expires ${expiresAt}):\n\n  ${token}\n\n${pin}On the desktop, run:\n\n  deskhook agent --server ${server} --token ${token}\n`,
        )
      }),
    )

  addSettingOptions(desktops.command('list').description('list desktops and their status'), ['dataDir'])
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const list = listDesktops(openCliContext(opts))
        if (opts.json) return printJson({ desktops: list.map((d) => ({ ...d, drives: drives(d.driver) })) })
        if (!list.length)
          return process.stdout.write('No desktops yet. Create a token with: deskhook desktops token\n')
        printTable([
          ['ID', 'NAME', 'PLATFORM', 'DRIVER', 'DRIVES', 'STATUS', 'LAST SEEN'],
          ...list.map((d) => [
            d.id,
            d.name,
            d.platform,
            d.driver,
            drives(d.driver) || '-',
            d.revokedAt
              ? 'revoked'
              : d.status !== 'offline' && d.sessionState && d.sessionState !== 'active'
                ? `${d.status} (${d.sessionState.replace('_', ' ')})`
                : d.status,
            d.lastSeenAt ?? '-',
          ]),
        ])
      }),
    )

  addSettingOptions(
    desktops
      .command('revoke')
      .description("revoke a desktop's credential; a running server disconnects it within seconds")
      .argument('<id-or-name>', 'the desktop id, or its name when unique'),
    ['dataDir'],
  )
    .option('--json', 'print JSON')
    .action((idOrName: string, opts) =>
      run(() => {
        const desktop = revokeDesktop(openCliContext(opts), idOrName, cliActor())
        if (opts.json) return printJson(desktop)
        process.stdout.write(`Revoked desktop "${desktop.name}" (${desktop.id}).\n`)
      }),
    )
}
