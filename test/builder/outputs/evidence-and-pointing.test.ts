// Never silently wrong (docs/builder.md, "Outputs"): in real Chromium, on a booking form whose
// confirmation lists several values side by side, a generated output is read only beside words
// that mean its key; a key nothing names is asked about, and the person can decline the options
// and point at the value instead. Each build's automation is then run for real on a new booking.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { indexTree } from '../../../src/automation/index.ts'
import { elementAt } from '../../../src/builder/ask/pointing.ts'
import type { BuildRequest } from '../../../src/builder/contract.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { NONE_OF_THESE, pointAnswer } from '../../../src/protocol/questions.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

let seq = 77_830
const bookings: { code: string; pickup: string }[] = []

/** A booking form; its confirmation shows the pickup, a generated number and the cost side by side. */
const page = (
  thanks: 'labelled' | 'bare',
) => `<!doctype html><html><head><title>Fleet desk</title></head><body>
<main><h1>New booking</h1>
<form method="post" action="/${thanks}/book">
<label>Pickup <input name="pickup" required></label>
<label>Days <input name="days" type="number" required></label>
<button type="submit">Book</button></form></main></body></html>`

const confirmation = (thanks: 'labelled' | 'bare', code: string, pickup: string, days: number) =>
  thanks === 'labelled'
    ? `<!doctype html><html><head><title>Fleet desk</title></head><body><main><h1>Booked</h1>
<dl><dt>Pickup</dt><dd>${pickup}</dd><dt>Booking number</dt><dd>${code}</dd>
<dt>Estimated cost</dt><dd>${days * 40}.00 EUR</dd><dt>Return</dt><dd>2026-12-0${Math.min(days, 9)}</dd></dl>
<p><a href="/labelled/">New booking</a></p></main></body></html>`
    : `<!doctype html><html><head><title>Fleet desk</title></head><body><main><h1>Thank you!</h1>
<p>We hold a car for you at ${pickup}.</p><p class="code">${code}</p><p>Watchers (0)</p>
<p><a href="/bare/">New booking</a></p></main></body></html>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const kind = url.pathname.startsWith('/bare') ? 'bare' : 'labelled'
      const html = { headers: { 'content-type': 'text/html; charset=utf-8' } }
      if (req.method === 'POST') {
        const form = await req.formData()
        const code = `FD-${++seq}`
        const pickup = String(form.get('pickup'))
        bookings.push({ code, pickup })
        return new Response(confirmation(kind, code, pickup, Number(form.get('days'))), html)
      }
      return new Response(page(kind), html)
    },
  })
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  server?.stop(true)
})

const request = (expect: Record<string, unknown>): BuildRequest => ({
  prompt: 'Book a car at the fleet desk',
  sample: { id: 's1', input: { pickup: 'Lisbon airport', days: 3 }, expect },
  previous: [],
})

describe('outputs rest on evidence', () => {
  test('two generated values are read beside the labels that mean their keys, not by place', async () => {
    const window = await driver.launch({ url: `${server.url}labelled/` })
    const port = localDesktop(driver)
    const script = scriptedIO()
    const result = await buildAutomation(
      port,
      script.io,
      request({ bookingNumber: { $type: 'string' }, estimatedCost: { $type: 'string' } }),
    )
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions).toEqual([])
    await driver.navigate(window.id, `${server.url}labelled/`)
    const run = await port.run(result.automation, { pickup: 'Porto', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ bookingNumber: bookings.at(-1)!.code, estimatedCost: '80.00 EUR' })
  }, 60_000)

  test('a key nothing names is asked about; “none of these” leads to pointing, and the point is read live', async () => {
    const window = await driver.launch({ url: `${server.url}bare/` })
    const port = localDesktop(driver)
    const script = scriptedIO([
      // The options are the values that appeared; the owner declines them all, to point instead.
      { kind: 'choose_outputs', answer: () => NONE_OF_THESE },
      {
        kind: 'point',
        answer: () => {
          throw new Error('replaced below')
        },
      },
    ])
    // The point is where the person sees the code: the centre of its box on the live screen.
    const ask = script.io.ask.bind(script.io)
    script.io.ask = async (q) => {
      if (q.kind !== 'point') return ask(q)
      expect(q.pointable).toBe(true)
      const shot = await driver.snapshot(q.windowId!)
      const code = indexTree(shot.root).all.find((e) => /^FD-\d+$/.test(e.name))!
      const b = code.bounds!
      expect(elementAt(shot.root, { x: b.x + b.width / 2, y: b.y + b.height / 2 })).toBe(code)
      script.questions.push({ question: q, answer: 'point' })
      return pointAnswer(b.x + b.width / 2, b.y + b.height / 2)
    }
    const result = await buildAutomation(port, script.io, request({ confirmation: { $type: 'string' } }))
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    const [choice, point] = script.questions.map((q) => q.question)
    expect(choice!.kind).toBe('choose_outputs')
    expect(choice!.pointable).toBe(true)
    expect(choice!.options.map((o) => o.value)).toContain(NONE_OF_THESE)
    expect(choice!.options.map((o) => o.label).some((l) => l.startsWith('FD-'))).toBe(true)
    expect(point!.kind).toBe('point')
    await driver.navigate(window.id, `${server.url}bare/`)
    const run = await port.run(result.automation, { pickup: 'Faro', days: 1 })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ confirmation: bookings.at(-1)!.code })
  }, 60_000)

  test('a text pointed at is read as shown; only a count or id by its name takes the number out of it', async () => {
    const built = async (key: string) => {
      const window = await driver.launch({ url: `${server.url}bare/` })
      const port = localDesktop(driver)
      const script = scriptedIO([{ kind: 'choose_outputs', answer: () => NONE_OF_THESE }])
      const ask = script.io.ask.bind(script.io)
      script.io.ask = async (q) => {
        if (q.kind !== 'point') return ask(q)
        const shot = await driver.snapshot(q.windowId!)
        const b = indexTree(shot.root).all.find((e) => e.name === 'Watchers (0)')!.bounds!
        script.questions.push({ question: q, answer: 'point' })
        return pointAnswer(b.x + b.width / 2, b.y + b.height / 2)
      }
      const result = await buildAutomation(port, script.io, request({ [key]: { $type: 'string' } }))
      expect(script.unexpected).toEqual([])
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      await driver.navigate(window.id, `${server.url}bare/`)
      return (await port.run(result.automation, { pickup: 'Porto', days: 2 })).result
    }
    // "state" is named nowhere: the owner declines the offered values and points at the text.
    expect(await built('state')).toEqual({ state: 'Watchers (0)' })
    expect(await built('watcherCount')).toEqual({ watcherCount: '0' })
  }, 90_000)

  test('“Watchers (0)” is never an issue number: a count beside other words is no evidence', async () => {
    const window = await driver.launch({ url: `${server.url}bare/` })
    const port = localDesktop(driver)
    const script = scriptedIO([
      { kind: 'choose_outputs', answer: (q) => q.options.find((o) => o.label.startsWith('FD-'))!.value },
    ])
    const result = await buildAutomation(port, script.io, request({ issueNumber: { $type: 'string' } }))
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions.map((q) => q.question.kind)).toEqual(['choose_outputs'])
    await driver.navigate(window.id, `${server.url}bare/`)
    const run = await port.run(result.automation, { pickup: 'Braga', days: 1 })
    expect(run.result).toEqual({ issueNumber: bookings.at(-1)!.code })
  }, 60_000)
})
