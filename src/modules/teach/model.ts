import { type Static, t } from 'elysia'
import { JOB_METHODS } from '../jobs/router.ts'
import { SECRET_INPUT_PATH_PATTERN } from '../secrets/secret-inputs.ts'

/** The body property that marks a teaching call (the seed's `svc`). */
export const ENVELOPE_KEY = 'deskhook'

/** `{"$type": "string"}`-style placeholders in `expect` stand for values generated at run time. */
export const EXPECT_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const

export const TeachEnvelope = t.Object(
  {
    teach: t.Literal(true),
    prompt: t.Optional(t.String({ minLength: 1, maxLength: 4000 })),
    expect: t.Optional(t.Record(t.String(), t.Unknown())),
    scenario: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    path: t.Optional(t.String({ minLength: 1, maxLength: 1000 })),
    desktop: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    method: t.Optional(t.Union(JOB_METHODS.map((m) => t.Literal(m)))),
    /** The app is reset between runs (a test instance): verification may submit samples again. */
    resettable: t.Optional(t.Boolean()),
    /** "Show me": the person will demonstrate this sample; the builder asks `demonstrate` first. */
    demonstrate: t.Optional(t.Boolean()),
    /**
     * Credential headers (dropped from every call by default) the job needs: each call's value is
     * kept as the job secret of the same name, never with the call, and steps use
     * `{{$secrets.<name>}}`.
     */
    keepHeaders: t.Optional(
      t.Array(t.String({ pattern: '^[A-Za-z][A-Za-z0-9-]{0,63}$' }), { maxItems: 10, uniqueItems: true }),
    ),
    /**
     * Input members whose values are secret (`password`, `login.pin`): kept only in memory for a
     * run, masked in every record, log, event, export and replay. Added to the job's list.
     */
    secrets: t.Optional(
      t.Array(t.String({ pattern: SECRET_INPUT_PATH_PATTERN }), { maxItems: 50, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
)
export type TeachEnvelope = Static<typeof TeachEnvelope>

export interface TeachResponse {
  jobId: string
  mode: 'learning' | 'live'
  buildId: string
  buildPath: string
  sampleId: string
  stabilityScore: number
}
