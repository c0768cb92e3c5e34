import { asc } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs, samples } from '../../db/schema/index.ts'
import { baseUrl } from '../../http/base-url.ts'
import { VERSION } from '../../version.ts'
import { ENVELOPE_KEY } from '../teach/model.ts'
import { components, errorResponse, reservedPaths } from './components.ts'
import { inferInputSchema, inferOutputSchema, markSecretProperties } from './infer-schema.ts'

type Obj = Record<string, unknown>

/** Schemas are inferred from at most this many samples of a job (the newest). */
const MAX_SAMPLES_PER_JOB = 20

/** `/customers/:id` → `/customers/{id}` */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')

const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`

/** OpenAPI 3.1 for every job on this host, plus the reserved paths. */
export function buildOpenApi(ctx: AppContext, serverUrl: string): Obj {
  const sampleRows = ctx.db
    .select({ jobId: samples.jobId, input: samples.input, expect: samples.expect })
    .from(samples)
    .orderBy(asc(samples.createdAt))
    .all()
  const byJob = new Map<string, { inputs: Obj[]; expects: Obj[] }>()
  for (const s of sampleRows) {
    const entry = byJob.get(s.jobId) ?? { inputs: [], expects: [] }
    // Bounded work per job: the schema comes from the newest samples only.
    entry.inputs.push(s.input)
    if (s.expect) entry.expects.push(s.expect)
    if (entry.inputs.length > MAX_SAMPLES_PER_JOB) entry.inputs.shift()
    if (entry.expects.length > MAX_SAMPLES_PER_JOB) entry.expects.shift()
    byJob.set(s.jobId, entry)
  }
  const paths: Record<string, Obj> = {}
  for (const job of ctx.db.select().from(jobs).orderBy(jobs.path, jobs.method).all()) {
    const key = toOpenApiPath(job.path)
    paths[key] ??= {}
    const item = paths[key]
    const data = byJob.get(job.id) ?? { inputs: [], expects: [] }
    const pathParams = [...job.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }))
    const hasBody = job.method !== 'GET' && job.method !== 'DELETE'
    item[job.method.toLowerCase()] = {
      operationId: operationId(job.method, job.path),
      summary: job.prompt,
      description: `Mode: ${job.mode}. Stability score: ${job.stabilityScore}. Teach it by adding a "${ENVELOPE_KEY}" envelope to the body.`,
      tags: [job.mode],
      'x-deskhook-job-id': job.id,
      parameters: [
        ...pathParams,
        { $ref: '#/components/parameters/async' },
        { $ref: '#/components/parameters/callbackUrl' },
        { $ref: '#/components/parameters/asyncHeader' },
      ],
      ...(hasBody
        ? {
            requestBody: {
              content: {
                'application/json': {
                  schema: markSecretProperties(inferInputSchema(data.inputs), job.secretInputs),
                },
              },
            },
          }
        : {}),
      responses: {
        200: {
          description: 'The run succeeded: the job output',
          content: { 'application/json': { schema: inferOutputSchema(data.expects) } },
        },
        202: {
          description: 'Queued (async call, or a sync call past its wait); poll resultPath',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/AsyncAcknowledgement' } } },
        },
        207: {
          description: 'Partial success: a taught alternate scenario',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/PartialResult' } } },
        },
        400: errorResponse('Malformed input'),
        401: errorResponse('Missing or invalid API key'),
        404: errorResponse('No job matches the method and path'),
        409: errorResponse('The job is still learning'),
        413: errorResponse('Body over the size limit'),
        415: errorResponse('Body is not JSON'),
        502: errorResponse('The run failed; the body names the failing step'),
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'deskhook jobs',
      version: VERSION,
      description:
        'Desktop automations exposed as HTTP endpoints. Every path needs the x-api-key header except /swagger.json and /_health.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths: { ...paths, ...reservedPaths },
    components,
  }
}

/** The served document: its bytes and their ETag. */
export interface OpenApiDocument {
  body: string
  etag: string
}

/**
 * One document, built at the first request after the jobs change (here or through the CLI) and
 * kept as bytes with an ETag: an anonymous request costs a lookup, never a rebuild, whatever its
 * Host. `builds` counts rebuilds (tests check that a second request does not rebuild).
 */
export function openApiCache(ctx: AppContext): { get(): OpenApiDocument; builds(): number } {
  let doc: OpenApiDocument | undefined
  let builds = 0
  const clear = () => {
    doc = undefined
  }
  ctx.events.on('jobs.changed', clear)
  ctx.events.on('db.external-change', clear)
  return {
    get() {
      if (!doc) {
        const body = JSON.stringify(buildOpenApi(ctx, baseUrl(ctx)))
        doc = { body, etag: `"${Bun.hash(body).toString(36)}"` }
        builds++
      }
      return doc
    },
    builds: () => builds,
  }
}
