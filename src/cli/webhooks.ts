import type { Command } from 'commander'
import { cliActor } from '../modules/audit/actor.ts'
import { recordAudit } from '../modules/audit/record.ts'
import { getWebhookSecret, rotateWebhookSecret } from '../modules/webhooks/signing.ts'
import { addSettingOptions, openCliContext, printJson, run } from './shared.ts'

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('status events sent to callback URLs')

  addSettingOptions(
    webhooks
      .command('secret')
      .description('show the secret that signs status events (Standard Webhooks), or rotate it'),
    ['dataDir'],
  )
    .option('--rotate', 'make a new secret; the old one keeps signing alongside for 24 h')
    .option('--json', 'print JSON')
    .action((opts) =>
      run(() => {
        const ctx = openCliContext(opts)
        if (opts.rotate) {
          const rotated = rotateWebhookSecret(ctx)
          recordAudit(ctx, {
            actor: cliActor(),
            action: 'settings.changed',
            target: { kind: 'setting', id: 'webhook_secret' },
            details: { rotated: true, previousValidUntil: rotated.previousValidUntil },
          })
          if (opts.json) return printJson({ ...rotated, rotated: true })
          process.stdout.write(
            `Rotated the webhook signing secret. The new secret:\n\n  ${rotated.secret}\n\n` +
              `Deliveries carry a second signature made with the old secret until ${rotated.previousValidUntil};\n` +
              'update your receivers before then.\n',
          )
          return
        }
        const secret = getWebhookSecret(ctx)
        if (opts.json) return printJson({ secret, rotated: false })
        process.stdout.write(
          `Webhook signing secret:\n\n  ${secret}\n\n` +
            'Receivers verify the webhook-signature header with it, using any Standard Webhooks library.\n',
        )
      }),
    )
}
