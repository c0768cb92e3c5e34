/** The fixed parts of the OpenAPI document: shared schemas, parameters and the reserved paths. */
import { recordingPaths, recordingSchemas } from './recording-paths.ts'

type Obj = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: Obj, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})
export const errorResponse = (description: string) => json(ref('Error'), description)

export const components = {
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  schemas: {
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message', 'requestId'],
          properties: {
            code: { type: 'string', examples: ['JOB_NOT_FOUND'] },
            message: { type: 'string' },
            requestId: { type: 'string' },
          },
        },
      },
    },
    AsyncAcknowledgement: {
      type: 'object',
      required: ['jobExecutionId', 'status', 'resultPath'],
      properties: {
        jobExecutionId: { type: 'string', format: 'uuid' },
        status: { const: 'queued' },
        resultPath: { type: 'string', examples: ['/_executions/0190f2c4-…'] },
      },
    },
    PartialResult: {
      type: 'object',
      description: 'A taught alternate scenario: the run reached a known end, not the intended effect',
      properties: {
        result: { type: 'object' },
        scenario: { type: 'string' },
        steps: { type: 'array', items: ref('Step') },
      },
    },
    Step: {
      type: 'object',
      properties: {
        flowName: { type: 'string' },
        executionOrder: { type: 'integer' },
        totalSteps: { type: 'integer' },
        status: { type: 'string', examples: ['SUCCESS'] },
        result: {},
      },
    },
    Execution: {
      type: 'object',
      required: ['jobExecutionId', 'status', 'done'],
      properties: {
        jobExecutionId: { type: 'string', format: 'uuid' },
        executionId: { type: 'integer' },
        jobId: { type: 'string' },
        status: { enum: ['queued', 'running', 'succeeded', 'partial', 'failed', 'timed_out', 'cancelled'] },
        done: { type: 'boolean' },
        result: {},
        steps: { type: 'array', items: ref('Step') },
        replayUrl: { type: ['string', 'null'] },
      },
    },
    TeachResponse: {
      type: 'object',
      required: ['jobId', 'mode', 'buildId', 'buildPath', 'sampleId', 'stabilityScore'],
      properties: {
        jobId: { type: 'string' },
        mode: { enum: ['learning', 'live'] },
        buildId: { type: 'string' },
        buildPath: { type: 'string' },
        sampleId: { type: 'string' },
        stabilityScore: { type: 'number' },
      },
    },
    Build: {
      type: 'object',
      required: ['id', 'jobId', 'sampleId', 'status', 'question', 'progress'],
      properties: {
        id: { type: 'string' },
        jobId: { type: 'string' },
        sampleId: { type: 'string' },
        status: { enum: ['queued', 'exploring', 'waiting_for_answer', 'verifying', 'succeeded', 'failed'] },
        question: {
          oneOf: [
            { type: 'null' },
            {
              type: 'object',
              required: ['id', 'kind', 'text', 'options', 'multiple'],
              properties: {
                id: { type: 'string' },
                kind: {
                  enum: [
                    'choose_window',
                    'map_field',
                    'map_option',
                    'fill_required',
                    'choose_submit',
                    'choose_outputs',
                    'free_text',
                    'demonstrate',
                  ],
                  description:
                    '`demonstrate`: the builder asks to be shown; record the task (POST /_builds/{id}/recordings) and answer with {"recordingId"}',
                },
                text: { type: 'string' },
                options: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { value: { type: 'string' }, label: { type: 'string' } },
                  },
                },
                multiple: { type: 'boolean' },
                windowId: { type: 'string', description: '`demonstrate`: the window to record in' },
              },
            },
          ],
        },
        progress: { type: 'array', items: { type: 'object' } },
        scenario: { type: ['string', 'null'] },
        error: { type: ['object', 'null'] },
      },
    },
    Answer: {
      type: 'object',
      required: ['questionId', 'answer'],
      additionalProperties: false,
      properties: {
        questionId: { type: 'string' },
        answer: {
          oneOf: [
            {
              type: 'string',
              description: 'One of the options; `__none__` declines a choice question (none of these fits)',
            },
            {
              type: 'array',
              items: { type: 'string' },
              description: 'A multiple choice; `[]` (or `["__none__"]`) declines it',
            },
            {
              type: 'object',
              description:
                'A `demonstrate` question: a stopped recording of this build with at least one action',
              required: ['recordingId'],
              additionalProperties: false,
              properties: { recordingId: { type: 'string' } },
            },
          ],
        },
      },
    },
    JobList: {
      type: 'object',
      required: ['jobs'],
      properties: { jobs: { type: 'array', items: { type: 'object' } } },
    },
    ...recordingSchemas,
  },
  parameters: {
    async: {
      name: 'async',
      in: 'query',
      description: 'Set to 1 to queue the run and get 202 at once',
      schema: { enum: ['1', 'true'] },
    },
    callbackUrl: {
      name: 'callback_url',
      in: 'query',
      description: 'Where status events are POSTed (http or https)',
      schema: { type: 'string', format: 'uri' },
    },
    asyncHeader: {
      name: 'x-job-async',
      in: 'header',
      description: 'true: same as ?async=1',
      schema: { enum: ['true'] },
    },
  },
}

const idParam = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
})

export const reservedPaths = {
  '/swagger.json': {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      security: [],
      responses: {
        200: {
          description: 'OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
  '/_health': {
    get: {
      operationId: 'getHealth',
      summary: 'Liveness and database check',
      security: [],
      responses: {
        200: json({ type: 'object' }, 'Healthy'),
        503: json({ type: 'object' }, 'Database unavailable'),
      },
    },
  },
  '/_jobs': {
    get: {
      operationId: 'listJobs',
      summary: 'The jobs and their endpoints',
      responses: { 200: json(ref('JobList'), 'All jobs'), 401: errorResponse('Missing or invalid API key') },
    },
  },
  '/_executions/{id}': {
    get: {
      operationId: 'getExecution',
      summary: 'Status and result of one execution',
      description:
        'Polled with the key that made the call: a key with the `call` scope reads the executions it created (and those of the key it replaced by rotation); a key with `read` reads any within its job patterns.',
      parameters: [idParam('jobExecutionId from the 202 acknowledgement')],
      responses: {
        200: json(ref('Execution'), 'The execution'),
        401: errorResponse('Missing or invalid API key'),
        403: errorResponse('The key has neither the `read` nor the `call` scope'),
        404: errorResponse('No such execution, or not one this key may read'),
      },
    },
  },
  '/_builds/{id}': {
    get: {
      operationId: 'getBuild',
      summary: 'Status of a build, including any open question',
      parameters: [idParam('buildId from the teach response')],
      responses: {
        200: json(ref('Build'), 'The build'),
        401: errorResponse('Missing or invalid API key'),
        404: errorResponse('No such build'),
      },
    },
  },
  '/_builds/{id}/answers': {
    post: {
      operationId: 'answerBuildQuestion',
      summary: "Answers the build's open question",
      parameters: [idParam('buildId')],
      requestBody: { required: true, content: { 'application/json': { schema: ref('Answer') } } },
      responses: {
        200: json(ref('Build'), 'The build, resumed'),
        400: errorResponse('The answer is malformed or not among the options'),
        401: errorResponse('Missing or invalid API key'),
        404: errorResponse('No such build, or (demonstrate) no such recording of it'),
        409: errorResponse(
          'No open question, or a different one is open, or (demonstrate) the recording is not stopped',
        ),
        422: errorResponse('(demonstrate) The recording has no actions'),
      },
    },
  },
  '/_builds/{id}/cancel': {
    post: {
      operationId: 'cancelBuild',
      summary:
        'Cancels a build that has not ended: it fails with BUILD_CANCELLED, its open question closes and its desktop is freed; the sample stays',
      parameters: [idParam('buildId')],
      responses: {
        200: json(
          ref('Build'),
          'The build, failed with BUILD_CANCELLED (the same answer again for a cancelled build)',
        ),
        401: errorResponse('Missing or invalid API key'),
        404: errorResponse('No such build'),
        409: errorResponse('BUILD_FINISHED: the build has already succeeded or failed'),
      },
    },
  },
  ...recordingPaths,
}
