// "Show me" over the HTTP API: a build asks `demonstrate`, a key records the task on the build's
// desktop (a real agent process driving Chromium), sends its clicks and typing through the API,
// stops, and answers with the recording. The builder's side is played through the build's IO
// (as the build worker's builder would ask), so this file tests the server, not the builder.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Question } from '../../src/builder/contract.ts'
import { DB_FILE } from '../../src/db/client.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { createKey } from '../../src/modules/keys/service.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../src/protocol/elements.ts'
import { buildIO } from '../../src/runtime/build-worker/build-io.ts'
import { retentionTaskFor } from '../../src/runtime/retention.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

const PASSWORD = 'Vq7#mZ2!pLw5'
const PAGE = `<!doctype html>
<html><head><title>Account desk</title></head><body>
<h1>New account</h1>
<form onsubmit="return false">
  <p><label for="name">Name</label> <input id="name" autocomplete="off"></p>
  <p><label for="pw">Password</label> <input id="pw" type="password" autocomplete="off"></p>
  <p><label for="plan">Plan</label> <select id="plan"><option>Solo</option><option>Team</option><option>Company</option></select></p>
  <p><label><input type="checkbox" id="news"> Newsletter</label></p>
  <p><button type="button" id="save">Save</button></p>
</form>
<p role="status" id="out"></p>
<script>
  document.getElementById('save').onclick = () => {
    document.getElementById('out').textContent = 'Saved ' + document.getElementById('name').value
  }
</script>
</body></html>`

let s: TestServer & { logs: string[] }
let app: ReturnType<typeof Bun.serve>
let agent: AgentProcess
let otherKey: string
let desktopId: string
let windowId: string
/** The build that holds the desktop (as the build worker's reservation would). */
let holder: string | undefined

beforeAll(async () => {
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
  s = await startTestServer()
  otherKey = createKey(s.ctx, 'colleague').key
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'office-pc',
    startUrl: `http://127.0.0.1:${app.port}/accounts`,
  })
  await agent.waitForLog((l) => l.msg === 'online', 30_000)
  desktopId = s.hub.onlineDesktops()[0]!.id
  const windows = await s.hub.rpc<WindowInfo[]>(desktopId, 'listWindows', [])
  windowId = windows.find((w) => w.url?.includes(`:${app.port}/accounts`))!.id
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await app?.stop(true)
})

// A test that fails half-way leaves no recording holding the desktop for the next one.
afterEach(async () => {
  const running = s.ctx.db.$client
    .query<{ id: string; build_id: string; started_by: string }, []>(
      "SELECT id, build_id, started_by FROM recordings WHERE status = 'recording'",
    )
    .all()
  for (const r of running) {
    const key = otherKey.startsWith(r.started_by) ? otherKey : s.key
    await s.call(`/_builds/${r.build_id}/recordings/${r.id}/cancel`, { method: 'POST', key })
  }
})

const post = (path: string, json?: unknown, key?: string) =>
  s.call(path, { method: 'POST', ...(json !== undefined ? { json } : {}), ...(key ? { key } : {}) })
const get = async (path: string) => (await s.call(path)).json()

/** A taught sample whose build waits for a desktop that never comes, so nothing else drives it. */
async function teach(path: string) {
  const res = await post(
    path,
    teachBody({ prompt: 'Create an account', desktop: 'elsewhere' }, { name: 'Ada' }),
  )
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; buildId: string }
}

/** The builder is stuck and asks to be shown, holding the agent's desktop like a running build. */
async function askToBeShown(path: string) {
  const { jobId, buildId } = await teach(path)
  if (holder) s.hub.release(desktopId, holder)
  expect(s.hub.reserve(desktopId, buildId)).toBe(true)
  holder = buildId
  const io = buildIO(s.ctx, buildId, new AbortController().signal)
  const question: Question = {
    kind: 'demonstrate',
    text: 'I could not find how to create an account. Show me once?',
    options: [],
    multiple: false,
    windowId,
  }
  const answered = io.ask(question)
  answered.catch(() => {})
  const build = await get(`/_builds/${buildId}`)
  expect(build.status).toBe('waiting_for_answer')
  return { jobId, buildId, questionId: build.question.id as string, answered, io }
}

async function start(buildId: string, key?: string) {
  const res = await post(`/_builds/${buildId}/recordings`, undefined, key)
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(201)
  return body as { recordingId: string; status: string; windowId: string; screenUrl: string }
}

function centre(root: UiElement, role: string, name: string) {
  const stack = [root]
  while (stack.length) {
    const e = stack.pop()!
    if (e.role === role && e.name === name && e.bounds)
      return { x: e.bounds.x + e.bounds.width / 2, y: e.bounds.y + e.bounds.height / 2 }
    stack.push(...e.children)
  }
  throw new Error(`no ${role} "${name}" on the page`)
}

const databaseText = () =>
  ['', '-wal']
    .map((suffix) => join(s.dataDir, `${DB_FILE}${suffix}`))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('')

describe('starting a recording', () => {
  test('outside a demonstrate question: 409 NOT_DEMONSTRATING, with why', async () => {
    const queued = await teach('/show/queued')
    const res = await post(`/_builds/${queued.buildId}/recordings`)
    expect(res.status).toBe(409)
    const body = await res.json()
    expect(body.error.code).toBe('NOT_DEMONSTRATING')
    expect(body.error.message).toContain('is not asking to be shown (status: queued)')
    expect(body.error.requestId).toBeString()

    const other = await teach('/show/other-question')
    void buildIO(s.ctx, other.buildId, new AbortController().signal)
      .ask({
        kind: 'map_field',
        text: 'Where does “name” go?',
        options: [{ value: 'a', label: 'A' }],
        multiple: false,
      })
      .catch(() => {})
    const asked = await post(`/_builds/${other.buildId}/recordings`)
    expect(asked.status).toBe(409)
    expect((await asked.json()).error.message).toContain('asking a map_field question, not to be shown')

    expect((await post('/_builds/nope/recordings')).status).toBe(404)
    expect(
      (await s.call(`/_builds/${queued.buildId}/recordings`, { method: 'POST', key: null })).status,
    ).toBe(401)
  })
})

describe('a demonstration over the API', () => {
  test('start, click and type through the API, stop: the actions and their screenshots, never the password', async () => {
    const shown = await askToBeShown('/show/accounts')
    const started = await start(shown.buildId)
    expect(started).toMatchObject({ status: 'recording', windowId })
    const path = `/_builds/${shown.buildId}/recordings/${started.recordingId}`
    // Starting again as the same key returns the same recording.
    expect((await start(shown.buildId)).recordingId).toBe(started.recordingId)

    const snapshot = await s.hub.rpc<Snapshot>(desktopId, 'snapshot', [windowId])
    const input = async (body: unknown) => {
      const res = await post(`${path}/input`, body)
      expect(res.status, await res.text()).toBe(204)
    }
    await input({ kind: 'click', ...centre(snapshot.root, 'textbox', 'Name') })
    await input({ kind: 'type', text: 'Ada Lovelace' })
    await input({ kind: 'click', ...centre(snapshot.root, 'textbox', 'Password') })
    await input({ kind: 'type', text: PASSWORD })
    await input({ kind: 'click', ...centre(snapshot.root, 'button', 'Save') })

    // While it records: the agent's live count and the last actions in words.
    const live = await eventually(async () => {
      const r = await get(path)
      return r.actionCount >= 5 && r
    }, 15_000)
    expect(live).toMatchObject({ status: 'recording', startedBy: expect.stringMatching(/^dh_/), actions: [] })
    expect(live.recent.length).toBeGreaterThan(0)
    expect(JSON.stringify(live)).not.toContain(PASSWORD)

    const stopped = await post(`${path}/stop`)
    expect(stopped.status).toBe(200)
    const recording = await stopped.json()
    expect(recording).toMatchObject({
      id: started.recordingId,
      buildId: shown.buildId,
      status: 'done',
      window: { title: 'Account desk' },
    })
    expect(recording.endedAt).toBeString()
    const actions = recording.actions as {
      seq: number
      kind: string
      target: { role: string; name: string } | null
      value?: string
      secret?: boolean
      screenshotUrl: string | null
    }[]
    expect(actions.map((a) => a.seq)).toEqual(actions.map((_, i) => i + 1))
    expect(actions.find((a) => a.kind === 'input' && a.target?.name === 'Name')?.value).toBe('Ada Lovelace')
    const secret = actions.find((a) => a.kind === 'input' && a.target?.name === 'Password')!
    expect(secret.secret).toBe(true)
    expect('value' in secret).toBe(false)
    expect(actions.findLast((a) => a.kind === 'click')?.target?.name).toBe('Save')

    // Screenshot URLs serve JPEGs.
    const urls = [...new Set(actions.flatMap((a) => (a.screenshotUrl ? [a.screenshotUrl] : [])))]
    expect(urls.length).toBeGreaterThan(0)
    expect(actions.at(-1)!.screenshotUrl).not.toBeNull()
    for (const url of urls) {
      const res = await s.call(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
      expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    }
    expect((await s.call(`${path}/screenshots/999`)).status).toBe(404)
    expect((await s.call(`${path}/screenshots/..%2f..%2fdeskhook.db`)).status).toBe(404)

    // The GET shows the same; the password is nowhere: not in the API, the database or the logs.
    const again = await get(path)
    expect(again.actions).toEqual(recording.actions)
    expect(JSON.stringify(again)).not.toContain(PASSWORD)
    expect(databaseText()).toContain('Ada Lovelace') // the reading works
    expect(databaseText()).not.toContain(PASSWORD)
    expect(s.logs.join('\n')).not.toContain(PASSWORD)
    expect(s.logs.join('\n')).not.toContain('Ada Lovelace')
    expect(agent.lines.join('\n')).not.toContain(PASSWORD)

    // Answering with the recording moves the build on; the builder gets the recording.
    const wrongShape = await post(`/_builds/${shown.buildId}/answers`, {
      questionId: shown.questionId,
      answer: started.recordingId,
    })
    expect(wrongShape.status).toBe(400)
    expect((await wrongShape.json()).error.message).toContain('{"recordingId": "…"}')
    const unknown = await post(`/_builds/${shown.buildId}/answers`, {
      questionId: shown.questionId,
      answer: { recordingId: 'no-such-recording' },
    })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe('RECORDING_NOT_FOUND')

    const answered = await post(`/_builds/${shown.buildId}/answers`, {
      questionId: shown.questionId,
      answer: { recordingId: started.recordingId },
    })
    expect(answered.status).toBe(200)
    const build = await answered.json()
    expect(build.status).toBe('exploring')
    expect(build.question).toBeNull()
    expect(build.answers.at(-1)).toMatchObject({ kind: 'demonstrate', answer: started.recordingId })
    expect(await shown.answered).toBe(started.recordingId)
    const given = await shown.io.recording!(started.recordingId)
    expect(given.window.title).toBe('Account desk')
    expect(given.actions.length).toBe(actions.length)
    expect(given.actions.some((a) => 'screenshot' in a)).toBe(false)
    expect(given.snapshots.length).toBeGreaterThan(0)
    expect(JSON.stringify(given)).not.toContain(PASSWORD)
    // A demonstration is never remembered for later builds of the job.
    const remembered = s.ctx.db.$client
      .query<{ n: number }, []>("SELECT count(*) AS n FROM job_answers WHERE kind = 'demonstrate'")
      .get()!
    expect(remembered.n).toBe(0)

    // The recording is the build's: its screenshots go with its job.
    const folder = join(s.dataDir, 'recordings', started.recordingId)
    expect(existsSync(folder)).toBe(true)
    expect((await s.call(`/_jobs/${shown.jobId}`, { method: 'DELETE' })).status).toBe(200)
    await eventually(async () => !existsSync(folder))
    expect((await s.call(path)).status).toBe(404)
  }, 120_000)

  test('the window is shown before the first action; typing goes to the focused field; a drop-down, a box and a chord are set; input that cannot land is 422', async () => {
    const shown = await askToBeShown('/show/remote-kinds')
    const started = await start(shown.buildId)
    expect(started.screenUrl).toBe(`/_builds/${shown.buildId}/screen`)
    const path = `/_builds/${shown.buildId}/recordings/${started.recordingId}`
    expect((await get(path)).screenUrl).toBe(started.screenUrl)

    // What a caller sees before acting: the window's picture and every element with its box.
    const screen = (await get(started.screenUrl)) as {
      image: string
      elements: {
        role: string
        name: string
        bounds: { x: number; y: number; width: number; height: number }
      }[]
    }
    expect([...Buffer.from(screen.image, 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    const at = (role: string, name: string) => {
      const b = screen.elements.find((e) => e.role === role && e.name === name)?.bounds
      if (!b) throw new Error(`no ${role} "${name}" on the screen`)
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
    }
    const input = async (body: unknown) => {
      const res = await post(`${path}/input`, body)
      expect(res.status, await res.text()).toBe(204)
    }
    const refused = async (body: unknown) => {
      const res = await post(`${path}/input`, body)
      expect(res.status).toBe(422)
      const { error } = await res.json()
      expect(error.code).toBe('INPUT_NOT_TAKEN')
      return error.message as string
    }
    await input({ kind: 'click', ...at('heading', 'New account') })
    expect(await refused({ kind: 'type', text: 'Ada' })).toContain('Nothing that takes text has focus')
    await input({ kind: 'type', text: 'Ada', ...at('textbox', 'Name') })
    await input({ kind: 'key', key: 'Ctrl+A' })
    await input({ kind: 'type', text: 'Grace Hopper' })
    await input({ kind: 'select', ...at('combobox', 'Plan'), option: 'Team' })
    expect(await refused({ kind: 'select', ...at('combobox', 'Plan'), option: 'Enterprise' })).toContain(
      'has no option “Enterprise”; it has “Solo”, “Team”, “Company”',
    )
    await input({ kind: 'check', ...at('checkbox', 'Newsletter'), checked: true })
    expect(await refused({ kind: 'check', ...at('button', 'Save') })).toContain('No check box')

    const stopped = await post(`${path}/stop`)
    expect(stopped.status).toBe(200)
    const recording = await stopped.json()
    expect(recording.screenUrl).toBeNull()
    const did = (
      recording.actions as { kind: string; target: { name: string } | null; value?: string; key?: string }[]
    ).map((a) => [a.kind, a.target?.name ?? '', a.value ?? a.key ?? ''])
    expect(did.filter(([kind]) => kind === 'input').at(-1)).toEqual(['input', 'Name', 'Grace Hopper'])
    expect(did).toContainEqual(['select', 'Plan', 'Team'])
    expect(did).toContainEqual(['check', 'Newsletter', 'true'])
    // Ctrl+A selected what the field held (Grace replaced it); nothing typed while nothing had
    // focus reached the page.
    expect(did.filter(([kind]) => kind === 'input').every(([, name]) => name === 'Name')).toBe(true)
  }, 120_000)

  test('someone else cannot type, stop or start while a key holds the desktop: 409 "being demonstrated by …"', async () => {
    const shown = await askToBeShown('/show/held')
    const started = await start(shown.buildId)
    const path = `/_builds/${shown.buildId}/recordings/${started.recordingId}`
    const holderPrefix = (await get(path)).startedBy as string

    for (const [what, res] of [
      ['input', await post(`${path}/input`, { kind: 'type', text: 'intruder' }, otherKey)],
      ['stop', await post(`${path}/stop`, undefined, otherKey)],
      ['cancel', await post(`${path}/cancel`, undefined, otherKey)],
      ['start', await post(`/_builds/${shown.buildId}/recordings`, undefined, otherKey)],
    ] as const) {
      expect({ what, status: res.status }).toEqual({ what, status: 409 })
      const body = await res.json()
      expect(body.error.code).toBe('DESKTOP_IN_USE')
      expect(body.error.message).toContain(`being demonstrated by ${holderPrefix}`)
    }
    expect((await get(path)).status).toBe('recording')

    // The holder cancels; the recording takes nothing more and cannot answer.
    const cancelled = await post(`${path}/cancel`)
    expect(cancelled.status).toBe(200)
    expect((await cancelled.json()).status).toBe('cancelled')
    const late = await post(`${path}/input`, { kind: 'key', key: 'Enter' })
    expect(late.status).toBe(409)
    expect((await late.json()).error.code).toBe('RECORDING_NOT_ACTIVE')
    const answer = await post(`/_builds/${shown.buildId}/answers`, {
      questionId: shown.questionId,
      answer: { recordingId: started.recordingId },
    })
    expect(answer.status).toBe(409)
    expect((await answer.json()).error.code).toBe('RECORDING_NOT_ACTIVE')

    // The desktop is free again: the colleague may start now.
    const theirs = await start(shown.buildId, otherKey)
    expect(theirs.recordingId).not.toBe(started.recordingId)
    expect(
      (await post(`/_builds/${shown.buildId}/recordings/${theirs.recordingId}/cancel`, undefined, otherKey))
        .status,
    ).toBe(200)
  }, 60_000)

  test('bad input gets a clear 4xx, never a 500', async () => {
    const shown = await askToBeShown('/show/bad-input')
    const started = await start(shown.buildId)
    const path = `/_builds/${shown.buildId}/recordings/${started.recordingId}`
    const cases: [unknown, number, string][] = [
      [{ kind: 'click' }, 400, 'input.x: is required'],
      [{ kind: 'click', x: -5, y: 10 }, 400, 'input.x: must be 0 or more'],
      [{ kind: 'click', x: 'left', y: 10 }, 400, 'input.x: must be a number, got a string'],
      [{ kind: 'type', text: '' }, 400, 'input.text: must not be empty'],
      [{ kind: 'type', text: 'x'.repeat(2001) }, 400, 'input.text: must be at most 2000 characters'],
      [{ kind: 'key', key: 'F13' }, 400, 'must be one of Enter, Tab'],
      [{ kind: 'dance' }, 400, 'input.kind: must be one of click, type, key, scroll, hover, select, check'],
      [{ kind: 'key', key: 'Hyper+A' }, 400, '"Hyper" is no modifier'],
      [{ kind: 'type', text: 'x', x: 10 }, 400, 'give both'],
      [{ kind: 'select', x: 10, y: 10 }, 400, 'input.option: is required'],
      [{ kind: 'check', x: 10, y: -1 }, 400, 'input.y: must be 0 or more'],
      [[1, 2], 400, ''],
    ]
    for (const [body, status, message] of cases) {
      const res = await post(`${path}/input`, body)
      const text = await res.text()
      expect({ body, status: res.status }).toEqual({ body, status })
      expect(JSON.parse(text).error.message).toContain(message)
    }
    const empty = await s.call(`${path}/input`, { method: 'POST' })
    expect(empty.status).toBe(400)
    const notJson = await s.call(`${path}/input`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"kind": ',
    })
    expect(notJson.status).toBe(400)
    expect((await notJson.json()).error.code).toBe('INVALID_JSON')
    const text = await s.call(`${path}/input`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    })
    expect(text.status).toBe(415)
    const missing = await post(`/_builds/${shown.buildId}/recordings/nope/input`, {
      kind: 'key',
      key: 'Enter',
    })
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.code).toBe('RECORDING_NOT_FOUND')
    expect((await s.call(`/_builds/${shown.buildId}/recordings/nope`)).status).toBe(404)
    expect((await post(`${path}/cancel`)).status).toBe(200)
  }, 60_000)

  test('a recording with no actions is kept, but answering with it is refused: 422', async () => {
    const shown = await askToBeShown('/show/empty')
    const started = await start(shown.buildId)
    const stopped = await post(`/_builds/${shown.buildId}/recordings/${started.recordingId}/stop`)
    expect(stopped.status).toBe(200)
    expect(await stopped.json()).toMatchObject({ status: 'done', actions: [], actionCount: 0 })

    const res = await post(`/_builds/${shown.buildId}/answers`, {
      questionId: shown.questionId,
      answer: { recordingId: started.recordingId },
    })
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error.code).toBe('EMPTY_RECORDING')
    expect(body.error.message).toContain('The recording has no actions')
    expect((await get(`/_builds/${shown.buildId}`)).status).toBe('waiting_for_answer')
  }, 60_000)
})

describe('retention', () => {
  test('a screenshot folder whose recording is gone (deleted by the CLI) is removed by the next pass', async () => {
    const orphan = join(s.dataDir, 'recordings', '01900000-0000-7000-8000-000000000000')
    mkdirSync(orphan, { recursive: true })
    writeFileSync(join(orphan, '1.jpg'), 'x')
    const report = await retentionTaskFor(s.ctx)!.runOnce()
    expect(report.recordings).toBeGreaterThanOrEqual(1)
    expect(existsSync(orphan)).toBe(false)
  })
})

describe('the teach envelope', () => {
  test('"demonstrate": true is kept on the build for the builder', async () => {
    const res = await post(
      '/show/envelope',
      teachBody({ prompt: 'Create an account', desktop: 'elsewhere', demonstrate: true }, { name: 'Ada' }),
    )
    expect(res.status).toBe(202)
    const { buildId } = await res.json()
    const row = s.ctx.db.$client
      .query<{ demonstrate: number }, [string]>('SELECT demonstrate FROM builds WHERE id = ?')
      .get(buildId)!
    expect(row.demonstrate).toBe(1)
    const wrong = await post('/show/envelope', teachBody({ demonstrate: 'yes' }, { name: 'Ada' }))
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.message).toContain('deskhook.demonstrate')
  })
})
