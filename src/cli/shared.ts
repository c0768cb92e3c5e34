import type { Command } from 'commander'
import { type Config, ConfigError, type ConfigFlags, loadConfig, SETTINGS } from '../config/index.ts'
import { type AppContext, createContext } from '../context.ts'
import { openDatabase } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'
import { systemClock } from '../lib/clock.ts'
import { DataDirLocked, DataDirUnusable } from '../lib/data-dir-lock.ts'
import { AppError } from '../lib/errors.ts'
import { createLogger } from '../lib/logger.ts'

/** Adds the flags for these settings, with their variable and default in the help text. */
export function addSettingOptions(cmd: Command, keys: (keyof Config)[]): Command {
  for (const key of keys) {
    const s = SETTINGS.find((x) => x.key === key)!
    const metavar = key === 'dataDir' || key === 'backupDir' ? 'dir' : key === 'publicUrl' ? 'url' : 'value'
    cmd.option(
      `${s.flag} <${metavar}>`,
      `${s.help} [env ${s.env}${s.default ? `, default ${s.default}` : ''}]`,
    )
  }
  return cmd
}

/** Commander's camelCase option names (`--body-limit` → `bodyLimit`) → config keys. */
export function flagsFrom(opts: Record<string, string | undefined>): ConfigFlags {
  const flags: ConfigFlags = {}
  for (const s of SETTINGS) {
    const name = s.flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    if (opts[name] !== undefined) flags[s.key] = opts[name]
  }
  return flags
}

/** Opens the data dir for a one-shot command; the server may be running on it at the same time. */
export function openCliContext(opts: Record<string, string | undefined>): AppContext {
  const config = loadConfig(flagsFrom(opts))
  const log = createLogger({ level: 'warn', format: 'json', destination: process.stderr })
  const db = openDatabase(config.dataDir)
  migrate(db.$client)
  return createContext({ config, db, log, clock: systemClock })
}

/** Runs a command body, turning known failures into a message on stderr and an exit code. */
export async function run(body: () => unknown | Promise<unknown>): Promise<void> {
  try {
    await body()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    if (err instanceof DataDirLocked || err instanceof DataDirUnusable) {
      process.stderr.write(`deskhook: ${err.message}\n`)
      process.exit(1)
    }
    if (err instanceof AppError) {
      process.stderr.write(`error: ${err.message}\n`)
      process.exit(err.status === 404 ? 3 : 1)
    }
    throw err
  }
}

export const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)

/** A plain aligned table for humans; scripts use --json. */
export function printTable(rows: string[][]): void {
  if (rows.length === 0) return
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  for (const r of rows)
    process.stdout.write(
      `${r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    )
}
