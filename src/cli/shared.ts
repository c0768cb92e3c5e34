import type { Command } from 'commander'
import {
  type Config,
  ConfigError,
  type ConfigFlags,
  debugRequested,
  loadConfig,
  SETTINGS,
} from '../config/index.ts'
import { type AppContext, createContext } from '../context.ts'
import { DatabaseUnusable, openDatabase } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'
import { systemClock } from '../lib/clock.ts'
import { DataDirLocked, DataDirUnusable } from '../lib/data-dir-lock.ts'
import { AppError } from '../lib/errors.ts'
import { createLogger } from '../lib/logger.ts'
import { StartError } from '../server.ts'
import { failureText } from './failure-text.ts'

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
    if (
      err instanceof DataDirLocked ||
      err instanceof DataDirUnusable ||
      err instanceof DatabaseUnusable ||
      err instanceof StartError
    )
      fail(`deskhook: ${err.message}`, err, 1)
    if (err instanceof AppError) fail(`error: ${err.message}`, err, err.status === 404 ? 3 : 1)
    // Never a raw stack for what is not a bug (issue 23, N14); a bug still gets one line first.
    const known = failureText(err)
    if (known) fail(`deskhook: ${known}`, err, 1)
    fail(
      `deskhook: unexpected error: ${(err as Error)?.message ?? String(err)} (DESKHOOK_DEBUG=1 shows where; please report it)`,
      err,
      70,
    )
  }
}

/** The one line on stderr (the stack too with DESKHOOK_DEBUG=1), then exit with `code`. */
function fail(line: string, err: unknown, code: number): never {
  process.stderr.write(`${line}\n`)
  if (debugRequested() && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`)
  process.exit(code)
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
