// Point to answer, over HTTP as a person would (docs/builder.md, "Ask and point"): a real
// server, a real agent and Debian's Chromium. The build cannot tell which value the job should
// return; the person reads the build's screen at GET /_builds/<id>/screen and answers by pointing
// at the value's element; the promoted job then returns each new booking's own code.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Rig, startRig } from '../gauntlet/harness.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { teachBody } from '../helpers/test-server.ts'

let seq = 41_200
const booked: string[] = []
const html = (body: string) =>
  new Response(
    `<!doctype html><html><head><title>Fleet desk</title></head><body><main>${body}</main></body></html>`,
    {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    },
  )

let app: ReturnType<typeof Bun.serve>
let rig: Rig
beforeAll(async () => {
  app = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (req.method !== 'POST')
        return html(`<h1>New booking</h1><form method="post" action="/book">
<label>Pickup <input name="pickup" required></label><button type="submit">Book</button></form>`)
      const code = `FD-${++seq}`
      booked.push(code)
      const pickup = String((await req.formData()).get('pickup'))
      // Nothing names the code: only a person can say it is what the job returns.
      return html(`<h1>Thank you!</h1><p>We hold a car for you at ${pickup}.</p><p>${code}</p>`)
    },
  })
  rig = await startRig(app.url.href)
}, 120_000)
afterAll(async () => {
  await rig?.stop()
  app?.stop(true)
})

interface Build {
  status: string
  question: {
    id: string
    kind: string
    pointable?: boolean
    options: { value: string; label: string }[]
  } | null
  error: { code: string } | null
}

describe('pointing at the screen answers a question about it', () => {
  test('the screen lists the elements; a point by ref is the answer; the job returns each call’s own code', async () => {
    const s = rig.server
    const taught = await s.call('/bookings', {
      method: 'POST',
      json: teachBody(
        { prompt: 'Book a car at the fleet desk', expect: { confirmation: { $type: 'string' } } },
        { pickup: 'Lisbon airport' },
      ),
    })
    expect(taught.status).toBe(202)
    const { buildId } = (await taught.json()) as { buildId: string }
    const read = async () => (await (await s.call(`/_builds/${buildId}`)).json()) as Build
    const asking = await eventually(async () => {
      const b = await read()
      return b.status === 'waiting_for_answer' && b
    }, 90_000)
    expect(asking.question!.kind).toBe('choose_outputs')
    expect(asking.question!.pointable).toBe(true)
    expect(asking.question!.options.at(-1)!.value).toBe('__none__')

    const screen = (await (await s.call(`/_builds/${buildId}/screen`)).json()) as {
      questionId: string
      image: string
      imageType: string
      elements: { ref: string; role: string; name: string; bounds: { width: number } }[]
    }
    expect(screen.questionId).toBe(asking.question!.id)
    expect(screen.imageType).toBe('image/jpeg')
    expect(Buffer.from(screen.image, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]))
    const code = screen.elements.find((e) => e.name === booked.at(-1))
    expect(code?.bounds.width).toBeGreaterThan(0)

    const unknown = await s.call(`/_builds/${buildId}/answers`, {
      method: 'POST',
      json: { questionId: asking.question!.id, answer: { point: { ref: 'no-such-ref' } } },
    })
    expect(unknown.status).toBe(400)
    const pointed = await s.call(`/_builds/${buildId}/answers`, {
      method: 'POST',
      json: { questionId: asking.question!.id, answer: { point: { ref: code!.ref } } },
    })
    expect(pointed.status).toBe(200)
    const done = await eventually(async () => {
      const b = await read()
      return ['succeeded', 'failed'].includes(b.status) && b
    }, 90_000)
    expect(done.error).toBeNull()
    expect(done.status).toBe('succeeded')
    // No question is open now: there is no screen to point at.
    expect((await s.call(`/_builds/${buildId}/screen`)).status).toBe(409)

    expect((await cli(['jobs', 'promote', 'POST', '/bookings', '--data', s.dataDir])).code).toBe(0)
    for (const pickup of ['Porto', 'Faro']) {
      const live = await s.call('/bookings', { method: 'POST', json: { pickup } })
      expect(live.status).toBe(200)
      expect(await live.json()).toEqual({ confirmation: booked.at(-1) })
    }
  }, 240_000)
})
