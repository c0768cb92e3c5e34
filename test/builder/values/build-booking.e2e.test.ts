// The whole builder on a booking app that keeps its data on its server (a reload keeps it): a
// sample carrying a live call's transport headers, a date into day/month/year lists, a native
// date, a yes/no radio group, a country given by its initials. The build decides everything
// without a question, and live calls with new values book what they ask for.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { MONTHS } from '../../../src/automation/date-filters.ts'
import type { SampleSpec } from '../../../src/builder/contract.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { optionLabelled, scriptedIO } from '../scripted-io.ts'

const options = (values: string[], labels = values) =>
  values.map((v, i) => `<option value="${v}">${labels[i]}</option>`).join('')
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i))

const FORM = `<!doctype html><html><head><meta charset="utf-8"><title>Harbour Hotel – New booking</title></head><body>
<h1>New booking</h1>
<form method="post" action="/book">
  <p><label for="guest">Guest name</label> <input id="guest" name="guest" required></p>
  <p><label for="mail">Contact</label> <input id="mail" name="mail" type="email" required></p>
  <div><span>Arrival</span>
    <select name="a_day" aria-label="Day"><option value="">Day</option>${options(range(1, 31))}</select>
    <select name="a_month" aria-label="Month"><option value="">Month</option>${options(range(1, 12), MONTHS)}</select>
    <select name="a_year" aria-label="Year"><option value="">Year</option>${options(range(2024, 2030))}</select>
  </div>
  <p><label for="dob">Date of birth</label> <input id="dob" name="dob" type="date"></p>
  <fieldset><legend>Breakfast included?</legend>
    <label><input type="radio" name="breakfast" value="y"> Yes</label>
    <label><input type="radio" name="breakfast" value="n"> No</label>
  </fieldset>
  <p><label for="country">Country of residence</label> <select id="country" name="country">
    <option value="">Choose…</option>${options(['at', 'fr', 'gb', 'us', 'de'], ['Österreich', 'France', 'United Kingdom', 'United States', 'Germany'])}
  </select></p>
  <p><button type="submit">Book</button></p>
</form></body></html>`

const booked = (
  id: string,
) => `<!doctype html><html><head><meta charset="utf-8"><title>Harbour Hotel – Booked</title></head><body>
<h1>Booking ${id} confirmed</h1><p><a href="/">New booking</a></p></body></html>`

interface Booking {
  id: string
  fields: Record<string, string>
}

let taught: { automation: Automation; sample: SampleSpec } | undefined
let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
const bookings: Booking[] = []

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (request.method === 'POST' && url.pathname === '/book') {
        const form = await request.formData()
        const fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]))
        const id = `HB-${(bookings.length + 1).toString(16).padStart(4, '0')}`
        bookings.push({ id, fields })
        return new Response(booked(id), { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      return new Response(FORM, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    },
  })
  driver = new BrowserDriver()
  await driver.start()
  await driver.launch({ url: `http://127.0.0.1:${server.port}/` })
})

afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

describe('a booking built from one sample', () => {
  test('no question, no header used, each composite control filled in the app’s format; live calls book what they ask', async () => {
    const sample: SampleSpec = {
      id: 's1',
      input: {
        guest: 'Ann Lee',
        email: 'ann@example.com',
        arrival: '2025-06-03',
        birthday: '1990-04-01',
        breakfast: true,
        country: 'UK',
        _http: {
          method: 'POST',
          path: '/book',
          params: {},
          headers: {
            accept: '*/*',
            'user-agent': 'curl/8.5.0',
            'content-length': '160',
            host: 'deskhook:7070',
          },
        },
      },
      expect: { bookingId: { $type: 'string' } },
    }
    const script = scriptedIO()
    const port = localDesktop(driver)
    const result = await buildAutomation(port, script.io, {
      prompt: 'Book a stay at the Harbour Hotel and return the booking id',
      sample,
      previous: [],
    })
    if (process.env.BUILDER_TRANSCRIPT) console.log(script.lines.join('\n'))
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.unexpected).toEqual([])
    expect(script.questions).toEqual([])
    taught = { automation: result.automation, sample }
    const transcript = script.lines.join('\n')
    expect(transcript).not.toMatch(/user-agent|content-length|“accept”|“host”/)
    expect(transcript).toContain('“UK” means “United Kingdom” in “Country of residence”')
    expect(transcript).toContain(
      '“Arrival” is a date in 3 parts; “arrival” fills them in the app’s format: day “3”, month “June”, year “2025”',
    )
    // The sample was booked once, as the caller meant it.
    expect(bookings.map((b) => b.fields)).toEqual([
      {
        guest: 'Ann Lee',
        mail: 'ann@example.com',
        a_day: '3',
        a_month: '6',
        a_year: '2025',
        dob: '1990-04-01',
        breakfast: 'y',
        country: 'gb',
      },
    ])

    // A live call with new values, in the caller's own spelling.
    const run = await port.run(result.automation, {
      guest: 'Bo Chen',
      email: 'bo@example.com',
      arrival: '2026-12-24',
      birthday: '1985-11-30',
      breakfast: 'no',
      country: 'uk',
    })
    expect(run.status).toBe('succeeded')
    expect(run.result.bookingId).toBe(bookings.at(-1)!.id)
    expect(bookings.at(-1)!.fields).toEqual({
      guest: 'Bo Chen',
      mail: 'bo@example.com',
      a_day: '24',
      a_month: '12',
      a_year: '2026',
      dob: '1985-11-30',
      breakfast: 'n',
      country: 'gb',
    })
  }, 90_000)

  test('a header the prompt names is an input like any value; the other headers stay transport', async () => {
    const sample: SampleSpec = {
      id: 's3',
      input: {
        email: 'eve@example.com',
        arrival: '2025-07-01',
        breakfast: true,
        country: 'France',
        _http: {
          method: 'POST',
          path: '/book',
          params: {},
          headers: { accept: '*/*', 'user-agent': 'curl/8.5.0', 'x-guest-name': 'Eve Ng' },
        },
      },
      expect: { bookingId: { $type: 'string' } },
    }
    const script = scriptedIO()
    const before = bookings.length
    const result = await buildAutomation(localDesktop(driver), script.io, {
      prompt:
        'Book a stay at the Harbour Hotel and return the booking id; the guest comes as the X-Guest-Name header',
      sample,
      previous: [],
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.questions).toEqual([])
    expect(script.lines).toContain(
      '[map] “_http.headers.x-guest-name” goes into “Guest name”: its label “Guest name” (match 0.80)',
    )
    expect(script.lines.join('\n')).not.toMatch(/user-agent|“accept”/)
    expect(bookings.slice(before).map((b) => b.fields.guest)).toEqual(['Eve Ng'])
  }, 90_000)

  test('a later sample’s new word for a list is asked about once, then kept in the step’s valueMap', async () => {
    if (!taught) throw new Error('the first build did not run')
    const sample: SampleSpec = {
      id: 's2',
      input: {
        guest: 'Cy Diaz',
        email: 'cy@example.com',
        arrival: '2025-09-10',
        birthday: '1979-02-14',
        breakfast: false,
        country: 'Deutschland',
      },
      expect: { bookingId: { $type: 'string' } },
    }
    const script = scriptedIO([{ kind: 'map_option', answer: optionLabelled('Germany') }])
    const port = localDesktop(driver)
    const before = bookings.length
    const result = await buildAutomation(port, script.io, {
      prompt: 'Book a stay at the Harbour Hotel and return the booking id',
      sample,
      previous: [{ ...taught.sample, scenario: 'Booking confirmed' }],
      automation: taught.automation,
    })
    if (process.env.BUILDER_TRANSCRIPT) console.log(script.lines.join('\n'))
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.questions.map((q) => q.question.text)).toEqual([
      '“Country of residence” has no option called “Deutschland” (the value of “country”). Which option means “Deutschland”?',
    ])
    const country = result.automation.steps.find((s) => s.name === 'Choose “Country of residence”')
    expect(country).toMatchObject({ valueMap: { UK: 'United Kingdom', Deutschland: 'Germany' } })
    // Booked once, in Germany; a live call in the caller's spelling books there too.
    expect(bookings.slice(before).map((b) => b.fields.country)).toEqual(['de'])
    const run = await port.run(result.automation, {
      ...sample.input,
      guest: 'Di Eck',
      country: 'deutschland',
    })
    expect(run.status).toBe('succeeded')
    expect(bookings.at(-1)!.fields).toMatchObject({ guest: 'Di Eck', country: 'de', breakfast: 'n' })
  }, 90_000)
})
