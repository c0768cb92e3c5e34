import type { Command } from 'commander'
import { loadConfig, SETTINGS } from '../config/index.ts'
import { startServer } from '../server.ts'
import { addSettingOptions, flagsFrom, run } from './shared.ts'

export function registerServe(program: Command): void {
  addSettingOptions(
    program.command('serve').description('run the deskhook server (trigger host and dashboard)'),
    SETTINGS.map((s) => s.key),
  ).action((opts) =>
    run(async () => {
      const config = loadConfig(flagsFrom(opts))
      const server = await startServer(config)
      if (server.initialKey) {
        // Straight to the terminal, never through the logger: secrets stay out of log files.
        process.stdout.write(
          `\nFirst start: created API key "${server.initialKey.name}". It is shown only this once:\n\n  ${server.initialKey.key}\n\nSend it as the x-api-key header. More keys: deskhook keys create --name NAME\n\n`,
        )
      }
      if (server.setupUrl) {
        // The link holds a one-time code: to the terminal only, like the first key.
        process.stdout.write(
          `\nOpen the dashboard to create the workspace and its first admin (this link works until then):\n\n  ${server.setupUrl}\n\n`,
        )
      }
      const shutdown = async (signal: string) => {
        server.ctx.log.info({ signal }, 'signal received')
        await server.stop()
        process.exit(0)
      }
      process.once('SIGINT', () => void shutdown('SIGINT'))
      process.once('SIGTERM', () => void shutdown('SIGTERM'))
    }),
  )
}
