import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'

export type { Logger }

export interface LoggerOptions {
  level: string
  format: 'auto' | 'json' | 'pretty'
  /** Where lines go; stdout unless a test captures them. */
  destination?: NodeJS.WritableStream
}

/**
 * JSON lines by default; readable lines on a terminal. pino-pretty runs as an in-process stream,
 * not a `transport:` (transports use worker threads, which break under `bun build --compile`).
 * Secrets never reach a log line: code never logs them, and the fields below are censored as a backstop.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const usePretty = opts.format === 'pretty' || (opts.format === 'auto' && process.stdout.isTTY === true)
  const base = {
    level: opts.level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      // Fixed paths only: wildcard paths cost several µs on every line, access lines included.
      paths: ['key', 'apiKey', 'token', 'secret', 'headers["x-api-key"]', 'headers["x-deskhook-agent"]'],
      censor: '[redacted]',
    },
  }
  if (usePretty) {
    return pino(
      base,
      pretty({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss.l',
        destination: opts.destination ?? 1,
        sync: true,
      }),
    )
  }
  if (opts.destination) return pino(base, opts.destination)
  // Lines are written in 4 KiB batches (one syscall per ~20 access lines under load) and at least
  // once a second, so a quiet server's log is still current when someone tails it.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 })
  const logger = pino(base, destination)
  // Only when no write is in flight: under constant load the buffer drains by itself, and a flush
  // during a write would queue another 'drain' listener each second.
  setInterval(() => {
    if (!(destination as unknown as { _writing: boolean })._writing) destination.flush()
  }, 1000).unref()
  return logger
}
