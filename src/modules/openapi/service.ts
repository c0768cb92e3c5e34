import { asc } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs, samples } from '../../db/schema/index.ts'
import { VERSION } from '../../version.ts'
import { ENVELOPE_KEY } from '../teach/model.ts'
import { components, errorResponse, reservedPaths } from './components.ts'
import { inferInputSchema, inferOutputSchema } from './infer-schema.ts'

type Obj = Record<string, unknown>

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
    entry.inputs.push(s.input)
    if (s.expect) entry.expects.push(s.expect)
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
        ? { requestBody: { content: { 'application/json': { schema: inferInputSchema(data.inputs) } } } }
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

/** The document is rebuilt only after jobs change (here or through the CLI), not per request. */
export function openApiCache(ctx: AppContext): (serverUrl: string) => Obj {
  const docs = new Map<string, Obj>()
  const clear = () => docs.clear()
  ctx.events.on('jobs.changed', clear)
  ctx.events.on('db.external-change', clear)
  return (serverUrl) => {
    let doc = docs.get(serverUrl)
    if (!doc) {
      doc = buildOpenApi(ctx, serverUrl)
      if (docs.size > 20) docs.clear()
      docs.set(serverUrl, doc)
    }
    return doc
  }
}
