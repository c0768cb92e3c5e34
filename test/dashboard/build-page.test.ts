import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { EventEmitter } from 'node:events'
import { join } from 'node:path'
import { buildEventStream } from '../../src/dashboard/pages/build-events.ts'
import { DB_FILE } from '../../src/db/client.ts'
import { completeBuild, failBuild } from '../../src/modules/builds/lifecycle.ts'
import { askQuestion, getBuild, recordProgress } from '../../src/modules/builds/service.ts'
import { deleteJob } from '../../src/modules/jobs/remove.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import type { Question } from '../../src/protocol/questions.ts'
import {
  type DashboardClient,
  launchBrowser,
  seriousViolations,
  signIn,
  signInPage,
} from '../helpers/dashboard.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let server: TestServer
let admin: DashboardClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
}, 60_000)
afterAll(() => server.close())

interface Taught {
  jobId: string
  buildId: string
  path: string
}

async function teach(sample: Record<string, unknown> = { name: 'Ada' }): Promise<Taught> {
  const path = `/customers-${crypto.randomUUID().slice(0, 8)}`
  const res = await server.call(path, {
    method: 'POST',
    json: teachBody({ prompt: 'Create a customer' }, sample),
  })
  expect(res.status).toBe(202)
  const body = (await res.json()) as { jobId: string; buildId: string }
  return { ...body, path }
}

const options = (...values: string[]) => values.map((value) => ({ value, label: `Field ${value}` }))

/** The builder's side: it asks on the build (no desktop needed). */
function ask(buildId: string, q: Partial<Question> = {}) {
  return askQuestion(server.ctx, buildId, {
    kind: 'map_field',
    text: 'Where should “ref” go?',
    options: options('phone', 'notes'),
    multiple: false,
    ...q,
  }).question!
}

const html = async (res: Response) => {
  const text = await res.text()
  // Attributes are rendered in a fixed order; collapse whitespace so matches read simply.
  return text.replace(/\s+/g, ' ')
}

describe('the build page', () => {
  test('shows the route, the status and the sample with secret values masked', async () => {
    const t = await teach({ name: 'Ada', password: 'hunter2-very-secret', nested: { apiToken: 'tok-123' } })
    const page = await admin.get(`/_/builds/${t.buildId}`)
    expect(page.status).toBe(200)
    const text = await html(page)
    expect(text).toContain(`href="/_/jobs/${t.jobId}"`)
    expect(text).toContain(t.path)
    expect(text).toContain('badge-queued')
    expect(text).toContain('Sample received; waiting for the builder to start')
    expect(text).toContain('Ada')
    expect(text).not.toContain('hunter2-very-secret')
    expect(text).not.toContain('tok-123')
    expect(text).toContain('&quot;password&quot;: &quot;•••&quot;')
    expect(text).toContain(`data-build-live="${t.buildId}"`)
  })

  test("a job secret's value is masked wherever it occurs in the sample", async () => {
    const t = await teach({ note: 'the door code is 99-RED-42', code: 'x' })
    setJobSecret(server.ctx, 'POST', t.path, 'doorCode', '99-RED-42')
    const text = await html(await admin.get(`/_/builds/${t.buildId}`))
    expect(text).not.toContain('99-RED-42')
    expect(text).toContain('the door code is •••')
  })

  test('an unknown build is a 404 page, not a 500', async () => {
    const res = await admin.get('/_/builds/no-such-build')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('No build with id no-such-build')
  })

  test('a single-choice question is a form of radio buttons', async () => {
    const t = await teach()
    const q = ask(t.buildId)
    const text = await html(await admin.get(`/_/builds/${t.buildId}`))
    expect(text).toContain(`action="/_/builds/${t.buildId}/answers"`)
    expect(text).toContain(`name="questionId" value="${q.id}"`)
    expect(text).toContain('<legend>Where should “ref” go?</legend>')
    // The two options and "None of these", which every choice question offers.
    expect(text.match(/type="radio" name="answer"/g)?.length).toBe(3)
    expect(text).toContain('value="__none__"')
    expect(text).toContain('value="notes"')
    expect(text).toContain('Field notes')
    expect(text).not.toContain('type="checkbox"')
    expect(text).toContain(`data-question-id="${q.id}"`)
    expect(text).toContain(`name="_csrf" value="${admin.csrf}"`)
  })

  test('a multiple-choice question is a form of checkboxes', async () => {
    const t = await teach()
    ask(t.buildId, { kind: 'choose_outputs', multiple: true, options: options('id', 'total', 'status') })
    const text = await html(await admin.get(`/_/builds/${t.buildId}`))
    expect(text.match(/type="checkbox" name="answer"/g)?.length).toBe(4)
    expect(text).not.toContain('type="radio"')
  })

  test('a free-text question, or one without options, is a text input with a label', async () => {
    for (const q of [
      { kind: 'free_text' as const, options: [] },
      { kind: 'fill_required' as const, options: [] },
    ]) {
      const t = await teach()
      ask(t.buildId, { ...q, text: 'Which country is the default?' })
      const text = await html(await admin.get(`/_/builds/${t.buildId}`))
      expect(text).toMatch(/<label>Which country is the default\?<input type="text" name="answer" required/)
      expect(text).not.toContain('type="radio"')
      expect(text).not.toContain('type="checkbox"')
    }
  })

  test('answering through the form records the answer and redirects back to the build', async () => {
    const t = await teach()
    const q = ask(t.buildId)
    const res = await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id, answer: 'notes' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/_/builds/${t.buildId}?answered=1`)
    const row = getBuild(server.ctx, t.buildId)
    expect(row.status).toBe('exploring')
    expect(row.question).toBeNull()
    expect(row.answers).toMatchObject([{ questionId: q.id, answer: 'notes' }])
    const after = await html(await admin.get(res.headers.get('location')!))
    expect(after).toContain('Your answer was recorded')
    expect(after).not.toContain('name="questionId"')
    expect(after).toContain('Answer received for')
  })

  test('checked boxes are recorded as a list; free text as typed', async () => {
    const a = await teach()
    const q1 = ask(a.buildId, {
      kind: 'choose_outputs',
      multiple: true,
      options: options('id', 'total', 'status'),
    })
    const body = new URLSearchParams({ _csrf: admin.csrf, questionId: q1.id })
    body.append('answer', 'id')
    body.append('answer', 'status')
    const res = await fetch(`${server.url}/_/builds/${a.buildId}/answers`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(res.status).toBe(303)
    expect(getBuild(server.ctx, a.buildId).answers[0]!.answer).toEqual(['id', 'status'])

    const b = await teach()
    const q2 = ask(b.buildId, { kind: 'free_text', options: [], text: 'Default country?' })
    expect(
      (await admin.post(`/_/builds/${b.buildId}/answers`, { questionId: q2.id, answer: 'Germany' })).status,
    ).toBe(303)
    expect(getBuild(server.ctx, b.buildId).answers[0]!.answer).toBe('Germany')
  })

  test('a stale question id is a 409 page that shows the open question; nothing is recorded', async () => {
    const t = await teach()
    const stale = ask(t.buildId)
    // The builder replaced its question (as after a restart) before the person answered.
    const fresh = ask(t.buildId, { text: 'Where should “ref” go, really?' })
    const res = await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: stale.id, answer: 'notes' })
    expect(res.status).toBe(409)
    const text = await html(res)
    expect(text).toContain('replaced by a newer one')
    expect(text).toContain(`name="questionId" value="${fresh.id}"`)
    expect(text).not.toContain('checked')
    const row = getBuild(server.ctx, t.buildId)
    expect(row.answers).toEqual([])
    expect(row.question?.id).toBe(fresh.id)
  })

  test('an answer to a question that is no longer open is a 409 page, never a 500', async () => {
    const t = await teach()
    const q = ask(t.buildId)
    expect(
      (await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id, answer: 'phone' })).status,
    ).toBe(303)
    // The same form sent again (a second tab, a double click).
    const again = await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id, answer: 'notes' })
    expect(again.status).toBe(409)
    expect(await html(again)).toContain('This question is no longer open')
    expect(getBuild(server.ctx, t.buildId).answers).toHaveLength(1)
  })

  test('bad answers re-render the form with a 400 and the choice kept', async () => {
    const t = await teach()
    const q = ask(t.buildId)
    const notAnOption = await admin.post(`/_/builds/${t.buildId}/answers`, {
      questionId: q.id,
      answer: 'fax',
    })
    expect(notAnOption.status).toBe(400)
    expect(await html(notAnOption)).toContain('&quot;fax&quot; is not among the options')

    const nothing = await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id })
    expect(nothing.status).toBe(400)
    expect(await html(nothing)).toContain('Choose one of the options')

    const m = await teach()
    const mq = ask(m.buildId, { kind: 'choose_outputs', multiple: true, options: options('id', 'total') })
    const none = await admin.post(`/_/builds/${m.buildId}/answers`, { questionId: mq.id })
    expect(none.status).toBe(400)
    expect(await html(none)).toContain('Choose at least one option')

    const f = await teach()
    const fq = ask(f.buildId, { kind: 'free_text', options: [], text: 'Default country?' })
    const blank = await admin.post(`/_/builds/${f.buildId}/answers`, { questionId: fq.id, answer: '   ' })
    expect(blank.status).toBe(400)
    expect(await html(blank)).toContain('The answer is empty')
    const long = await admin.post(`/_/builds/${f.buildId}/answers`, {
      questionId: fq.id,
      answer: 'x'.repeat(10_001),
    })
    expect(long.status).toBe(400)
    const kept = await html(long)
    expect(kept).toContain(`value="${'x'.repeat(10_001)}"`)

    for (const id of [t.buildId, m.buildId, f.buildId]) {
      expect(getBuild(server.ctx, id).status).toBe('waiting_for_answer')
      expect(getBuild(server.ctx, id).answers).toEqual([])
    }
  })

  test('an answer without the CSRF token is refused', async () => {
    const t = await teach()
    const q = ask(t.buildId)
    const res = await admin.post(`/_/builds/${t.buildId}/answers`, {
      _csrf: '',
      questionId: q.id,
      answer: 'notes',
    })
    expect(res.status).toBe(403)
    expect(getBuild(server.ctx, t.buildId).answers).toEqual([])
  })

  test('a member can answer', async () => {
    const member = await signIn(server, { email: 'member@example.com', role: 'member' })
    const t = await teach()
    const q = ask(t.buildId)
    expect((await member.get(`/_/builds/${t.buildId}`)).status).toBe(200)
    const res = await member.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id, answer: 'phone' })
    expect(res.status).toBe(303)
    expect(getBuild(server.ctx, t.buildId).answers).toMatchObject([{ questionId: q.id, answer: 'phone' }])
  })

  test('a succeeded build shows the scenario it learned, the version it wrote and what it holds', async () => {
    const t = await teach()
    const automation = {
      version: 1,
      app: { kind: 'web', url: 'http://crm.test/' },
      steps: [
        { kind: 'fill', name: 'Name', target: { by: 'label', label: 'Name' }, value: '{{name}}' },
        { kind: 'click', name: 'Save', target: { by: 'text', text: 'Save' } },
        { kind: 'branch', name: 'Duplicate?', scenario: 'duplicate' },
        { kind: 'read', name: 'Id', target: { by: 'label', label: 'Id' }, into: 'customerId' },
      ],
      scenarios: [
        {
          name: 'duplicate',
          outcome: 'alternate',
          steps: [{ kind: 'read', name: 'Message', target: { by: 'text', text: 'exists' }, into: 'message' }],
        },
      ],
      outputs: { url: '{{$url}}' },
    }
    const version = completeBuild(server.ctx, t.buildId, 'desk-1', {
      automation,
      scenario: 'main',
      reverified: [],
    })
    const text = await html(await admin.get(`/_/builds/${t.buildId}`))
    expect(text).toContain('badge-succeeded')
    expect(text).toContain('The build succeeded: the sample ends in scenario <strong>main</strong>')
    expect(text).toContain(`<a href="/_/jobs/${t.jobId}">version ${version} of POST ${t.path}</a>`)
    expect(text).toContain('4 steps in all; the job’s stability score is now 50/100')
    expect(text).toMatch(
      /<td>main <span class="badge badge-passing">this build<\/span><\/td><td>success<\/td><td>3<\/td>/,
    )
    expect(text).toContain('<code>customerId</code>, <code>url</code>')
    expect(text).toMatch(/<td>duplicate <\/td><td>alternate<\/td><td>1<\/td>/)
    // A finished build's page has nothing live to follow.
    expect(text).not.toContain('data-build-live=')
  })

  test('a failed build shows the error code and message', async () => {
    const t = await teach()
    failBuild(server.ctx, t.buildId, { code: 'VERIFY_FAILED', message: 'the Notes field was read-only' })
    const text = await html(await admin.get(`/_/builds/${t.buildId}`))
    expect(text).toContain('badge-failed')
    expect(text).toContain('<code>VERIFY_FAILED</code> the Notes field was read-only')
  })
})

/** An event stream read with fetch: `next()` is the next event (comments and `retry:` skipped). */
async function openEvents(client: DashboardClient, buildId: string) {
  const abort = new AbortController()
  const res = await fetch(`${server.url}/_/builds/${buildId}/events`, {
    headers: { cookie: client.cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let done = false
  async function next(): Promise<{ event: string; data: string } | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const lines = block.split('\n').filter((l) => !l.startsWith(':') && !l.startsWith('retry:'))
        if (lines.length === 0) continue
        const field = (name: string) =>
          lines
            .filter((l) => l.startsWith(`${name}:`))
            .map((l) => l.slice(name.length + 1).trimStart())
            .join('\n')
        return { event: field('event') || 'message', data: field('data') }
      }
      if (done) return null
      const chunk = await reader.read()
      if (chunk.done) done = true
      else buffer += decoder.decode(chunk.value, { stream: true })
    }
  }
  return { res, next, close: () => abort.abort() }
}

const listeners = () => server.ctx.events.listenerCount('build.changed')

/** Resolves once `build.changed` has this many listeners (a stream opened or its disconnect noticed). */
function listenersReach(n: number): Promise<void> {
  const events = server.ctx.events as unknown as EventEmitter
  return new Promise((resolve) => {
    const check = () => {
      if (listeners() !== n) return
      events.off('newListener', later)
      events.off('removeListener', later)
      resolve()
    }
    // `newListener` fires before the listener is added: look once it is.
    const later = () => setImmediate(check)
    events.on('newListener', later)
    events.on('removeListener', later)
    check()
  })
}

describe('live updates (server-sent events)', () => {
  test('the stream sends the build now and each change as it happens', async () => {
    const t = await teach()
    const stream = await openEvents(admin, t.buildId)
    expect(stream.res.status).toBe(200)
    expect(stream.res.headers.get('content-type')).toStartWith('text/event-stream')
    const first = await stream.next()
    expect(first?.event).toBe('build')
    const view = JSON.parse(first!.data)
    expect(view).toMatchObject({ id: t.buildId, jobId: t.jobId, status: 'queued' })

    recordProgress(
      server.ctx,
      t.buildId,
      { stage: 'explore', message: 'Looking at the Customers page' },
      'exploring',
    )
    const second = JSON.parse((await stream.next())!.data)
    expect(second.status).toBe('exploring')
    expect(second.progress.at(-1)).toMatchObject({
      stage: 'explore',
      message: 'Looking at the Customers page',
    })

    const q = ask(t.buildId)
    const third = JSON.parse((await stream.next())!.data)
    expect(third.status).toBe('waiting_for_answer')
    expect(third.question.id).toBe(q.id)

    // An answer from the page (another request) reaches the stream too.
    await admin.post(`/_/builds/${t.buildId}/answers`, { questionId: q.id, answer: 'notes' })
    const fourth = JSON.parse((await stream.next())!.data)
    expect(fourth.question).toBeNull()
    expect(fourth.answers[0].answer).toBe('notes')
    stream.close()
  }, 30_000)

  test('closing the stream removes its listeners', async () => {
    const t = await teach()
    const before = listeners()
    const external = server.ctx.events.listenerCount('db.external-change')
    const stream = await openEvents(admin, t.buildId)
    await stream.next()
    expect(listeners()).toBe(before + 1)
    expect(server.ctx.events.listenerCount('db.external-change')).toBe(external + 1)
    stream.close()
    await listenersReach(before)
    expect(server.ctx.events.listenerCount('db.external-change')).toBe(external)
    // Well inside the 15 s heartbeat, whose failed write would also end it: the disconnect itself must.
  }, 10_000)

  test('the stream ends once the build has finished, and leaves no listener', async () => {
    const t = await teach()
    const before = listeners()
    const stream = await openEvents(admin, t.buildId)
    await stream.next()
    failBuild(server.ctx, t.buildId, { code: 'VERIFY_FAILED', message: 'nope' })
    const last = JSON.parse((await stream.next())!.data)
    expect(last.status).toBe('failed')
    expect(last.error).toEqual({ code: 'VERIFY_FAILED', message: 'nope' })
    expect(await stream.next()).toBeNull()
    expect(listeners()).toBe(before)

    // A finished build's stream sends the view once and ends at once.
    const again = await openEvents(admin, t.buildId)
    expect(JSON.parse((await again.next())!.data).status).toBe('failed')
    expect(await again.next()).toBeNull()
  }, 30_000)

  test('a change another process commits (the CLI) reaches the stream', async () => {
    const t = await teach()
    const stream = await openEvents(admin, t.buildId)
    const seen = JSON.parse((await stream.next())!.data).progress.length
    const other = new Database(join(server.dataDir, DB_FILE))
    try {
      other.run('PRAGMA busy_timeout = 10000')
      const row = other
        .query<{ progress: string }, [string]>('SELECT progress FROM builds WHERE id = ?')
        .get(t.buildId)!
      const progress = [
        ...JSON.parse(row.progress),
        { at: new Date().toISOString(), stage: 'queued', message: 'Touched by another process' },
      ]
      other.run('UPDATE builds SET progress = ? WHERE id = ?', [JSON.stringify(progress), t.buildId])
    } finally {
      other.close()
    }
    for (;;) {
      const view = JSON.parse((await stream.next())!.data)
      if (view.progress.length > seen) {
        expect(view.progress.at(-1).message).toBe('Touched by another process')
        break
      }
    }
    stream.close()
  }, 30_000)

  test('a deleted job ends the stream with `gone`', async () => {
    const t = await teach()
    const stream = await openEvents(admin, t.buildId)
    await stream.next()
    deleteJob(server.ctx, t.jobId)
    let event = await stream.next()
    while (event?.event === 'build') event = await stream.next()
    expect(event?.event).toBe('gone')
    expect(await stream.next()).toBeNull()
  }, 30_000)

  test('without a session the stream is refused (401 JSON, no stream)', async () => {
    const t = await teach()
    const res = await fetch(`${server.url}/_/builds/${t.buildId}/events`, {
      headers: { accept: 'text/event-stream' },
      redirect: 'manual',
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error.code).toBe('UNAUTHORIZED')
  })

  test('a quiet stream sends a comment heartbeat', async () => {
    const t = await teach()
    const abort = new AbortController()
    const before = listeners()
    const res = buildEventStream(server.ctx, t.buildId, abort.signal, { heartbeatMs: 20 })
    const reader = res.body!.getReader()
    let text = ''
    while (!text.includes(': keep-alive\n\n')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toContain('event: build\n')
    abort.abort()
    expect(listeners()).toBe(before)
    await reader.cancel()
  })
})

describe('in the browser', () => {
  test('progress appears live, a question makes the page show its form, and answering it works', async () => {
    const t = await teach()
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text())
      })
      page.on('pageerror', (e) => problems.push(e.message))
      await signInPage(page, server)
      const streaming = listenersReach(listeners() + 1)
      await page.goto(`${server.url}/_/builds/${t.buildId}`)
      await page.getByRole('heading', { name: 'Build', level: 1 }).waitFor()
      // The island's stream is open once the server listens for this build's changes.
      await streaming
      await page.evaluate(() => {
        ;(window as unknown as { marker: number }).marker = 1
      })

      recordProgress(
        server.ctx,
        t.buildId,
        { stage: 'explore', message: 'Opened the New customer form' },
        'exploring',
      )
      await page.getByText('Opened the New customer form').waitFor()
      await page.locator('[data-build-status] .badge-exploring').waitFor()
      // Appended in place: the page was not reloaded.
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1)

      const q = ask(t.buildId)
      // The page reloads itself to show the server-rendered form.
      await page.getByRole('radio', { name: 'Field notes' }).waitFor()
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined()
      // The page with its form passes an accessibility check, wide and on a phone.
      for (const size of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size)
        expect(await seriousViolations(page)).toEqual([])
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        )
      }
      await page.getByRole('radio', { name: 'Field notes' }).check()
      await page.getByRole('button', { name: 'Answer' }).click()
      await page.getByText('Your answer was recorded').waitFor()
      expect(page.url()).toBe(`${server.url}/_/builds/${t.buildId}?answered=1`)
      const row = getBuild(server.ctx, t.buildId)
      expect(row.answers).toMatchObject([{ questionId: q.id, answer: 'notes' }])
      expect(row.question).toBeNull()
      expect(problems).toEqual([])
    } finally {
      await browser.close()
    }
  }, 60_000)
})
