import { resolve } from 'node:path'
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import bytes from 'bytes'
import ipaddr from 'ipaddr.js'

/**
 * The only module that reads flags and the environment. Precedence: flag > DESKHOOK_* > default.
 * Every problem is collected and reported together, naming both the flag and the variable.
 */
const LogLevel = Type.Union(
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
)

export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  dataDir: Type.String({ minLength: 1 }),
  bodyLimit: Type.Integer({ minimum: 1024, maximum: 32 * 1024 * 1024 }),
  /** Below this much free space in the data dir, runs keep running but take no screenshots. */
  minFreeDisk: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  logLevel: LogLevel,
  logFormat: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')]),
  publicUrl: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+(/.*)?$' })),
  shutdownTimeoutMs: Type.Integer({ minimum: 0, maximum: 120_000 }),
  /** How often the server looks for changes other processes (the CLI) made to the database. */
  watchIntervalMs: Type.Integer({ minimum: 10, maximum: 60_000 }),
  /** Agents send a heartbeat this often; three missed ones mark the desktop offline. */
  heartbeatIntervalMs: Type.Integer({ minimum: 50, maximum: 300_000 }),
  /** A socket to /_agent/ws that has not said hello (authenticated) within this is closed. */
  helloTimeoutMs: Type.Integer({ minimum: 100, maximum: 60_000 }),
  /** How long a run whose agent vanished waits for the agent's report before it is lost. */
  agentGraceMs: Type.Integer({ minimum: 0, maximum: 3_600_000 }),
  /** A run still going after this long ends `timed_out` (a job may set its own). */
  runTimeoutMs: Type.Integer({ minimum: 1000, maximum: 24 * 3_600_000 }),
  /** How long a synchronous call is held before it gets the 202 acknowledgement instead. */
  syncWaitMs: Type.Integer({ minimum: 0, maximum: 300_000 }),
  /** Bun's idle timeout for ordinary requests (held sync calls and sockets are exempt). */
  idleTimeoutS: Type.Integer({ minimum: 1, maximum: 255 }),
  /** CIDRs a `callback_url` may reach although they are private, loopback or link-local (LAN use). */
  callbackAllow: Type.Array(Type.String()),
  /** CIDRs that may read `/_metrics` without an API key (a Prometheus server on the LAN). */
  metricsAllow: Type.Array(Type.String()),
  /** `auto`: the server makes its own CA and certificate in the data dir and serves HTTPS. */
  tls: Type.Union([Type.Literal('off'), Type.Literal('auto')]),
  /** The admin's own certificate chain and key (PEM files): HTTPS with them instead. */
  tlsCert: Type.Optional(Type.String({ minLength: 1 })),
  tlsKey: Type.Optional(Type.String({ minLength: 1 })),
  /** Where the server writes its scheduled backups; none are made without it. */
  backupDir: Type.Optional(Type.String({ minLength: 1 })),
  /** Time between scheduled backups (1 minute to 30 days). */
  backupEveryMs: Type.Integer({ minimum: 60_000, maximum: 30 * 86_400_000, duration: true }),
  /** Scheduled backups kept in backupDir: older ones are removed after each new one. */
  backupKeep: Type.Integer({ minimum: 1, maximum: 1000 }),
  /** Days the audit log keeps its rows; 0 keeps them forever. */
  auditDays: Type.Integer({ minimum: 0, maximum: 36_500 }),
})
export type Config = Readonly<Static<typeof ConfigSchema>>

interface Setting {
  key: keyof Config
  flag: string
  env: string
  default?: string
  help: string
  /** Turns the raw string into the value the schema checks; returns an error message on failure. */
  parse?: (raw: string) => unknown
}

const integer = (raw: string) => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw)
const size = (raw: string) => {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : bytes.parse(raw)
  return n === null || Number.isNaN(n) ? raw : n
}
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
/** `90s`, `30m`, `24h`, `7d` → milliseconds. */
const duration = (raw: string) => {
  const m = /^(\d+)\s*([smhd])$/.exec(raw.trim())
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : raw
}
/** Comma-separated CIDRs, a bare address meaning that one host; any bad entry fails the list. */
const cidrList = (raw: string) => {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => {
      try {
        const [addr, bits] = e.includes('/')
          ? ipaddr.parseCIDR(e)
          : [ipaddr.parse(e), ipaddr.parse(e).kind() === 'ipv4' ? 32 : 128]
        return `${addr.toString()}/${bits}`
      } catch {
        return undefined
      }
    })
  return entries.every((e) => e !== undefined) ? Object.freeze(entries) : raw
}

export const SETTINGS: readonly Setting[] = [
  {
    key: 'port',
    flag: '--port',
    env: 'DESKHOOK_PORT',
    default: '8080',
    help: 'TCP port (0 = any free port)',
    parse: integer,
  },
  { key: 'host', flag: '--host', env: 'DESKHOOK_HOST', default: '0.0.0.0', help: 'address to listen on' },
  {
    key: 'dataDir',
    flag: '--data',
    env: 'DESKHOOK_DATA_DIR',
    default: './data',
    help: 'directory holding deskhook.db and files',
  },
  {
    key: 'bodyLimit',
    flag: '--body-limit',
    env: 'DESKHOOK_BODY_LIMIT',
    default: '1mb',
    help: 'largest request body (e.g. 1mb, 512kb; max 32mb)',
    parse: size,
  },
  {
    key: 'minFreeDisk',
    flag: '--min-free-disk',
    env: 'DESKHOOK_MIN_FREE_DISK',
    default: '1gb',
    help: 'free space the data dir keeps: below it runs still run but take no screenshots (e.g. 1gb, 0 = off)',
    parse: size,
  },
  {
    key: 'logLevel',
    flag: '--log-level',
    env: 'DESKHOOK_LOG_LEVEL',
    default: 'info',
    help: 'fatal|error|warn|info|debug|trace|silent',
  },
  {
    key: 'logFormat',
    flag: '--log-format',
    env: 'DESKHOOK_LOG_FORMAT',
    default: 'auto',
    help: 'json|pretty|auto (pretty on a terminal)',
  },
  {
    key: 'publicUrl',
    flag: '--public-url',
    env: 'DESKHOOK_PUBLIC_URL',
    help: 'base URL callers use, in links and OpenAPI (default: the listen address; never a request Host)',
  },
  {
    key: 'shutdownTimeoutMs',
    flag: '--shutdown-timeout',
    env: 'DESKHOOK_SHUTDOWN_TIMEOUT_MS',
    default: '5000',
    help: 'ms to let in-flight requests finish on SIGTERM',
    parse: integer,
  },
  {
    key: 'heartbeatIntervalMs',
    flag: '--heartbeat-interval',
    env: 'DESKHOOK_HEARTBEAT_INTERVAL_MS',
    default: '10000',
    help: 'ms between agent heartbeats (offline after 3 missed)',
    parse: integer,
  },
  {
    key: 'helloTimeoutMs',
    flag: '--hello-timeout',
    env: 'DESKHOOK_HELLO_TIMEOUT_MS',
    default: '5000',
    help: 'ms an agent socket may stay open before authenticating (hello)',
    parse: integer,
  },
  {
    key: 'agentGraceMs',
    flag: '--agent-grace',
    env: 'DESKHOOK_AGENT_GRACE_MS',
    default: '60000',
    help: "ms a run waits for a vanished agent's report",
    parse: integer,
  },
  {
    key: 'runTimeoutMs',
    flag: '--run-timeout',
    env: 'DESKHOOK_RUN_TIMEOUT_MS',
    default: '600000',
    help: 'ms before a run ends timed_out (jobs may set their own)',
    parse: integer,
  },
  {
    key: 'syncWaitMs',
    flag: '--sync-wait',
    env: 'DESKHOOK_SYNC_WAIT_MS',
    default: '120000',
    help: 'ms a synchronous call is held before it gets 202 (max 300000)',
    parse: integer,
  },
  {
    key: 'idleTimeoutS',
    flag: '--idle-timeout',
    env: 'DESKHOOK_IDLE_TIMEOUT_S',
    default: '10',
    help: 'seconds an idle connection is kept (held calls are exempt)',
    parse: integer,
  },
  {
    key: 'watchIntervalMs',
    flag: '--watch-interval',
    env: 'DESKHOOK_WATCH_INTERVAL_MS',
    default: '250',
    help: 'ms between checks for changes made by the CLI',
    parse: integer,
  },
  {
    key: 'callbackAllow',
    flag: '--callback-allow',
    env: 'DESKHOOK_CALLBACK_ALLOW',
    default: '',
    help: 'CIDRs callback URLs may reach despite being private/loopback (e.g. 10.0.0.0/8,192.168.1.5)',
    parse: cidrList,
  },
  {
    key: 'metricsAllow',
    flag: '--metrics-allow',
    env: 'DESKHOOK_METRICS_ALLOW',
    default: '',
    help: 'CIDRs that may read /_metrics without an API key (e.g. 10.0.0.0/8,127.0.0.1/32)',
    parse: cidrList,
  },
  {
    key: 'tls',
    flag: '--tls',
    env: 'DESKHOOK_TLS',
    default: 'off',
    help:
      'off|auto: auto serves HTTPS with a local CA and certificate made in the data dir (tls/); ' +
      "enrollment tokens then carry the CA's fingerprint, which agents pin",
  },
  {
    key: 'tlsCert',
    flag: '--tls-cert',
    env: 'DESKHOOK_TLS_CERT',
    help:
      'serve HTTPS with this PEM certificate chain (with --tls-key); end it with your CA certificate ' +
      'for agents to pin it',
  },
  { key: 'tlsKey', flag: '--tls-key', env: 'DESKHOOK_TLS_KEY', help: 'the PEM private key of --tls-cert' },
  {
    key: 'backupDir',
    flag: '--backup-dir',
    env: 'DESKHOOK_BACKUP_DIR',
    help: 'write a backup (as `deskhook backup` does) into this dir on a schedule; best on another disk',
  },
  {
    key: 'backupEveryMs',
    flag: '--backup-every',
    env: 'DESKHOOK_BACKUP_EVERY',
    default: '24h',
    help: 'time between scheduled backups into --backup-dir (e.g. 24h, 6h, 30m; 1m to 30d)',
    parse: duration,
  },
  {
    key: 'backupKeep',
    flag: '--backup-keep',
    env: 'DESKHOOK_BACKUP_KEEP',
    default: '7',
    help: 'scheduled backups kept in --backup-dir; older ones are removed',
    parse: integer,
  },
  {
    key: 'auditDays',
    flag: '--audit-days',
    env: 'DESKHOOK_AUDIT_DAYS',
    default: '365',
    help: 'days the audit log keeps its rows (one per run dispatched, besides every change); older rows are removed oldest first and the chain stays verifiable from the oldest kept row; 0 = forever',
    parse: integer,
  },
]

/** Whether the server listens with TLS (its own certificate or the admin's). */
export const servesTls = (config: Config): boolean => config.tls === 'auto' || config.tlsCert !== undefined

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

export type ConfigFlags = Partial<Record<keyof Config, string | number | undefined>>

export function loadConfig(
  flags: ConfigFlags = {},
  env: Record<string, string | undefined> = process.env,
): Config {
  const raw: Record<string, unknown> = {}
  const source: Record<string, string> = {}
  for (const s of SETTINGS) {
    const flag = flags[s.key]
    const value = flag !== undefined ? String(flag) : (env[s.env] ?? s.default)
    if (value === undefined) continue
    source[s.key] = flag !== undefined ? s.flag : env[s.env] !== undefined ? s.env : 'default'
    raw[s.key] = s.parse ? s.parse(value) : value
  }
  const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => {
    const key = e.path.slice(1) as keyof Config
    const s = SETTINGS.find((x) => x.key === key)
    const name = s ? `${s.flag} (${s.env}, from ${source[key] ?? 'default'})` : key
    return `${name}: ${describe(e.schema, e.message)}, got ${JSON.stringify(raw[key])}`
  })
  problems.push(...tlsProblems(raw, source))
  if (problems.length) throw new ConfigError([...new Set(problems)])
  raw.dataDir = resolve(String(raw.dataDir))
  for (const key of ['tlsCert', 'tlsKey', 'backupDir'] as const)
    if (typeof raw[key] === 'string') raw[key] = resolve(String(raw[key]))
  if (typeof raw.publicUrl === 'string') raw.publicUrl = raw.publicUrl.replace(/\/+$/, '')
  return Object.freeze(raw as Config)
}

/** The TLS settings that only make sense together (each named with where it came from). */
function tlsProblems(raw: Record<string, unknown>, source: Record<string, string>): string[] {
  const name = (key: keyof Config) => {
    const s = SETTINGS.find((x) => x.key === key)!
    return `${s.flag} (${s.env}, from ${source[key] ?? 'default'})`
  }
  const problems: string[] = []
  if ((raw.tlsCert === undefined) !== (raw.tlsKey === undefined))
    problems.push(
      `${name(raw.tlsCert === undefined ? 'tlsKey' : 'tlsCert')}: needs --tls-cert and --tls-key both`,
    )
  if (raw.tls === 'auto' && (raw.tlsCert !== undefined || raw.tlsKey !== undefined))
    problems.push(
      `${name('tls')}: auto makes its own certificate; use either --tls auto or --tls-cert/--tls-key`,
    )
  const tls = raw.tls === 'auto' || raw.tlsCert !== undefined
  if (tls && typeof raw.publicUrl === 'string' && raw.publicUrl.startsWith('http:'))
    problems.push(`${name('publicUrl')}: must be an https URL when the server serves TLS`)
  return problems
}

function describe(schema: TSchema, fallback: string): string {
  if (schema.duration) return 'must be a duration from 1m to 30d such as 24h, 6h or 30m'
  if (schema.type === 'integer' && schema.minimum !== undefined)
    return `must be an integer from ${schema.minimum} to ${schema.maximum}`
  if (schema.type === 'array') return 'must be comma-separated CIDRs such as 10.0.0.0/8'
  if (schema.anyOf) return `must be one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`
  if (schema.pattern) return 'must be an http(s) URL'
  return fallback.toLowerCase()
}

/** Options for a CLI command that only needs the data dir (keys, jobs, desktops). */
export function loadDataDirConfig(flags: { data?: string }, env = process.env): Config {
  return loadConfig({ dataDir: flags.data }, env)
}

/** `DESKHOOK_DEBUG=1`: a failed command also prints its stack (for a bug report). */
export function debugRequested(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.DESKHOOK_DEBUG && env.DESKHOOK_DEBUG !== '0')
}
