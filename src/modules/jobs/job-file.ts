import { type Static, Type } from '@sinclair/typebox'
import { Automation } from '../../protocol/automation.ts'
import { SECRET_INPUT_PATH_PATTERN } from '../secrets/secret-inputs.ts'

/**
 * A job as a file (`deskhook jobs export/import`): what it takes to serve the job on another
 * installation with no builder involved — route, prompt, one automation version, the samples
 * that describe it, and where and how long it may run. Installation-specific state (ids, version
 * numbers, the desktop it was taught on, build history) stays out, so a file kept in git only
 * changes when the job does.
 */
export const JOB_FILE_FORMAT = 'deskhook.job'
export const JOB_FILE_VERSION = 1

export const JobFileSample = Type.Object(
  {
    /** The job input as a live call would see it, `_http` included. */
    input: Type.Record(Type.String(), Type.Unknown()),
    expect: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    scenario: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('passing'), Type.Literal('failing')]),
    ),
  },
  { additionalProperties: false },
)
export type JobFileSample = Static<typeof JobFileSample>

const members = {
  format: Type.Literal(JOB_FILE_FORMAT),
  version: Type.Literal(JOB_FILE_VERSION),
  /** One of the job methods; checked (case-insensitively) with the path, after the shape. */
  method: Type.String({ minLength: 1 }),
  path: Type.String({ minLength: 1 }),
  prompt: Type.String({ minLength: 1, maxLength: 4000 }),
  samples: Type.Array(JobFileSample),
  /** Desktops (ids or names) allowed to run it; null or absent = any desktop. */
  desktopPool: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()])),
  /** Run timeout; null or absent = the server default. */
  timeoutMs: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  /** Input members whose values are secret (their values in `samples` are masked). */
  secretInputs: Type.Optional(
    Type.Array(Type.String({ pattern: SECRET_INPUT_PATH_PATTERN }), { maxItems: 50, uniqueItems: true }),
  ),
  exportedAt: Type.Optional(Type.String()),
}

export const JobFile = Type.Object({ ...members, automation: Automation }, { additionalProperties: false })
export type JobFile = Static<typeof JobFile>

/** The file's own members with the automation left opaque: it is checked on its own, by its parser. */
export const JobFileShape = Type.Object(
  { ...members, automation: Type.Unknown() },
  { additionalProperties: false },
)

/**
 * Pretty JSON in one fixed key order whatever order the data was written in (builder, hand edit,
 * earlier import), so the same job always exports to the same bytes and git diffs show real edits.
 */
export function formatJobFile(file: JobFile): string {
  const doc = {
    format: file.format,
    version: file.version,
    method: file.method,
    path: file.path,
    prompt: file.prompt,
    desktopPool: file.desktopPool ?? null,
    timeoutMs: file.timeoutMs ?? null,
    ...(file.secretInputs?.length ? { secretInputs: file.secretInputs } : {}),
    automation: canonical(file.automation),
    samples: file.samples.map((s) => ({
      input: canonical(s.input),
      expect: s.expect === undefined ? undefined : canonical(s.expect),
      scenario: s.scenario,
      status: s.status,
    })),
    exportedAt: file.exportedAt,
  }
  return `${JSON.stringify(doc, null, 2)}\n`
}

/** Keys that say what an object is come first, its bulk (steps, scenarios, `_http`) last. */
const FIRST = ['version', 'kind', 'by', 'name', 'outcome', 'app', 'when', 'target']
const LAST = ['outputs', 'steps', 'scenarios', '_http']

function rank(key: string): number {
  const first = FIRST.indexOf(key)
  if (first >= 0) return first - FIRST.length
  const last = LAST.indexOf(key)
  return last >= 0 ? last + 1 : 0
}

/** The value with every object's keys in the fixed order (rank, then code-point order). */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== 'object' || value === null) return value
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(keys.map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
}

/** Two sample inputs are the same sample when their canonical JSON is equal. */
export const inputKey = (input: unknown): string => JSON.stringify(canonical(input))
