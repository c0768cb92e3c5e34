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
 * Secrets never reach a log line: the paths below are censored wherever they appear.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const usePretty = opts.format === 'pretty' || (opts.format === 'auto' && process.stdout.isTTY === true)
  const base = {
    level: opts.level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'key',
        '*.key',
        'apiKey',
        '*.apiKey',
        'headers["x-api-key"]',
        '*.headers["x-api-key"]',
        'token',
        '*.token',
      ],
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
  return opts.destination
    ? pino(base, opts.destination)
    : pino(base, pino.destination({ dest: 1, sync: false }))
}
