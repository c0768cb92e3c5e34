/**
 * "Show me" in the OpenAPI document: recording a demonstration while a build asks `demonstrate`,
 * then answering with it (`{"questionId", "answer": {"recordingId"}}`).
 */
type Obj = Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: Obj, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})
const error = (description: string) => json(ref('Error'), description)

const STATUS = { enum: ['recording', 'done', 'cancelled', 'failed'] }

export const recordingSchemas = {
  RecordingStarted: {
    type: 'object',
    required: ['recordingId', 'status', 'windowId'],
    properties: {
      recordingId: { type: 'string' },
      status: STATUS,
      windowId: { type: 'string' },
      screenUrl: {
        type: 'string',
        description: 'GET it for the window now (a screenshot and its elements’ boxes): where to click first',
      },
    },
  },
  RecordedAction: {
    type: 'object',
    required: ['seq', 'atMs', 'kind', 'target', 'screenshotUrl'],
    properties: {
      seq: { type: 'integer', minimum: 1 },
      atMs: { type: 'integer', minimum: 0, description: 'Milliseconds since the recording started' },
      kind: { enum: ['click', 'input', 'select', 'check', 'key', 'navigate'] },
      target: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['role', 'name'],
            properties: {
              role: { type: 'string' },
              name: { type: 'string' },
              point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } },
              automationId: { type: 'string' },
              inputType: { type: 'string' },
              placeholder: { type: 'string' },
            },
          },
        ],
      },
      value: {
        type: 'string',
        description: 'What the field now holds, the option chosen, or "true"/"false"',
      },
      secret: { type: 'boolean', description: 'A password field: its value was never recorded' },
      key: { type: 'string' },
      url: { type: 'string' },
      screenshotUrl: {
        type: ['string', 'null'],
        description: 'The window once it settled after this action (one screenshot per burst of actions)',
      },
    },
  },
  Recording: {
    type: 'object',
    required: ['id', 'buildId', 'status', 'startedBy', 'startedAt', 'endedAt', 'window', 'actions'],
    properties: {
      id: { type: 'string' },
      buildId: { type: 'string' },
      desktopId: { type: 'string' },
      windowId: { type: 'string' },
      status: STATUS,
      startedBy: {
        type: 'string',
        description: "A person's email or an API key's prefix: who holds the desktop",
      },
      startedAt: { type: 'string', format: 'date-time' },
      endedAt: { type: ['string', 'null'], format: 'date-time' },
      window: {
        oneOf: [
          { type: 'null' },
          { type: 'object', properties: { title: { type: 'string' }, url: { type: 'string' } } },
        ],
      },
      actions: { type: 'array', items: ref('RecordedAction'), description: 'Empty while recording' },
      actionCount: { type: 'integer', description: "While recording: the agent's live count" },
      recent: {
        type: 'array',
        items: { type: 'string' },
        description: 'While recording: the last few actions in words',
      },
      screensRead: {
        type: 'integer',
        description:
          'While recording: how many different screens the agent has read (a screen is read once it settles, or when the person acts again)',
      },
      error: { type: ['string', 'null'] },
      screenUrl: {
        type: ['string', 'null'],
        description:
          'While recording: GET it for the window as it is now (a screenshot and every element with its box), to see where to click',
      },
    },
  },
  RemoteInput: {
    description:
      "Input performed on the desktop as a person's would be. x and y are pixels of the window's screenshot (GET /_builds/{id}/screen), the space of its element boxes",
    oneOf: [
      {
        type: 'object',
        required: ['kind', 'x', 'y'],
        properties: {
          kind: { const: 'click' },
          x: { type: 'number', minimum: 0 },
          y: { type: 'number', minimum: 0 },
        },
      },
      {
        type: 'object',
        required: ['kind', 'text'],
        description: 'Typed into the focused element; with x and y, that spot is clicked first',
        properties: {
          kind: { const: 'type' },
          text: { type: 'string', minLength: 1, maxLength: 2000 },
          x: { type: 'number', minimum: 0 },
          y: { type: 'number', minimum: 0 },
        },
      },
      {
        type: 'object',
        required: ['kind', 'key'],
        properties: {
          kind: { const: 'key' },
          key: {
            type: 'string',
            description: 'A named key, F1–F12 or one character, after any modifiers (Ctrl, Shift, Alt, Meta)',
            examples: ['Enter', 'Tab', 'Escape', 'ArrowDown', 'Ctrl+A', 'Shift+Tab'],
          },
        },
      },
      {
        type: 'object',
        required: ['kind', 'x', 'y', 'deltaY'],
        properties: {
          kind: { const: 'scroll' },
          x: { type: 'number' },
          y: { type: 'number' },
          deltaY: { type: 'number' },
        },
      },
      {
        type: 'object',
        required: ['kind', 'x', 'y'],
        description:
          'The pointer rests at the point without pressing (opens a menu shown on hover); the click on what it revealed is recorded',
        properties: {
          kind: { const: 'hover' },
          x: { type: 'number', minimum: 0 },
          y: { type: 'number', minimum: 0 },
        },
      },
      {
        type: 'object',
        required: ['kind', 'x', 'y', 'option'],
        description: 'Chooses the option (its text as shown) in the drop-down at the point',
        properties: {
          kind: { const: 'select' },
          x: { type: 'number', minimum: 0 },
          y: { type: 'number', minimum: 0 },
          option: { type: 'string', minLength: 1, maxLength: 500 },
        },
      },
      {
        type: 'object',
        required: ['kind', 'x', 'y'],
        description:
          'Ticks (checked: true), clears (false) or toggles the check box, radio or switch at the point',
        properties: {
          kind: { const: 'check' },
          x: { type: 'number', minimum: 0 },
          y: { type: 'number', minimum: 0 },
          checked: { type: 'boolean' },
        },
      },
    ],
  },
}

const param = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
})
const ids = [param('id', 'buildId'), param('rid', 'recordingId')]
const common = {
  401: error('Missing or invalid API key'),
  404: error('No such build or recording'),
}
const heldBy = error(
  'Someone else is demonstrating on the desktop (DESKTOP_IN_USE), or the recording has ended (RECORDING_NOT_ACTIVE)',
)

export const recordingPaths = {
  '/_builds/{id}/recordings': {
    post: {
      operationId: 'startRecording',
      summary: 'Starts recording a demonstration on the build\'s desktop ("show me")',
      description:
        'Only while the build asks a `demonstrate` question. The key that starts it holds the desktop: input, stop and cancel from another key are refused.',
      parameters: [param('id', 'buildId')],
      responses: {
        201: json(ref('RecordingStarted'), 'Recording'),
        ...common,
        409: error(
          'The build is not asking to be shown (NOT_DEMONSTRATING), or someone else is demonstrating',
        ),
        503: error("The build's desktop is not connected or cannot record"),
      },
    },
  },
  '/_builds/{id}/recordings/{rid}': {
    get: {
      operationId: 'getRecording',
      summary: "A recording: while it runs, the agent's live count; once stopped, its actions",
      parameters: ids,
      responses: { 200: json(ref('Recording'), 'The recording'), ...common },
    },
  },
  '/_builds/{id}/recordings/{rid}/screenshots/{seq}': {
    get: {
      operationId: 'getRecordingScreenshot',
      summary: "A screenshot named by an action's screenshotUrl",
      parameters: [...ids, param('seq', 'the seq in screenshotUrl')],
      responses: {
        200: {
          description: 'JPEG',
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
        ...common,
      },
    },
  },
  '/_builds/{id}/recordings/{rid}/stop': {
    post: {
      operationId: 'stopRecording',
      summary: 'Stops the recording and keeps it; answer the question with {"recordingId"}',
      parameters: ids,
      responses: { 200: json(ref('Recording'), 'The stopped recording'), ...common, 409: heldBy },
    },
  },
  '/_builds/{id}/recordings/{rid}/cancel': {
    post: {
      operationId: 'cancelRecording',
      summary: 'Ends the recording without keeping it',
      parameters: ids,
      responses: { 200: json(ref('Recording'), 'The cancelled recording'), ...common, 409: heldBy },
    },
  },
  '/_builds/{id}/recordings/{rid}/input': {
    post: {
      operationId: 'sendRecordingInput',
      summary:
        'Performs a click, typing, a key or chord, a scroll, a drop-down choice or a tick on the desktop while recording',
      parameters: ids,
      requestBody: { required: true, content: { 'application/json': { schema: ref('RemoteInput') } } },
      responses: {
        204: { description: 'Performed' },
        400: error('Not a valid input'),
        ...common,
        409: heldBy,
        422: error(
          'INPUT_NOT_TAKEN: nothing that takes text has focus, no drop-down or box at the point, or no such option',
        ),
        503: error('The desktop is not connected or could not perform it'),
      },
    },
  },
}
