import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import type { BuildRequest } from '../../../src/builder/contract.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { type Backoffice, startBackoffice } from '../../fixtures/backoffice/server.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { type Reply, scriptedIO } from '../scripted-io.ts'

// The team's pattern-rich fixture (test/fixtures/backoffice/server.ts): state on its server,
// a sign-in in front, and the controls people meet every day. Each job is built in-process
// against real Chromium, then run once live with new values, and checked in the app's data.
let app: Backoffice
let driver: BrowserDriver

beforeAll(async () => {
  app = startBackoffice({ today: '2026-11-23' })
  driver = new BrowserDriver()
  await driver.start()
  await driver.launch({ url: app.url })
}, 60_000)

afterAll(async () => {
  await driver?.stop()
  await app?.stop()
})

const secrets = () => ({
  secretNames: ['username', 'password'],
  secrets: { username: app.username, password: app.password },
})

async function build(request: Omit<BuildRequest, 'previous'>, replies: Reply[] = []) {
  const script = scriptedIO(replies)
  const result = await buildAutomation(localDesktop(driver), script.io, {
    previous: [],
    ...secrets(),
    ...request,
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${script.lines.join('\n')}`)
  })
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  return { automation: result.automation, script }
}

async function run(
  automation: Parameters<ReturnType<typeof localDesktop>['run']>[0],
  input: Record<string, unknown>,
) {
  const result = await localDesktop(driver).run(automation, { ...input, $secrets: secrets().secrets })
  if (result.status !== 'succeeded')
    throw new Error(JSON.stringify({ error: result.error, steps: result.steps }, null, 1))
  return result
}

describe('Acme Back Office (server state, sign-in, everyday controls)', () => {
  test('leave: split day/month/year selects, a JS date picker box, a yes/no radio pair, a checkbox', async () => {
    const { automation, script } = await build({
      prompt: 'Register leave for an employee',
      sample: {
        id: 'l1',
        input: {
          employee: 'Ada Lovelace',
          firstDay: '2026-12-21',
          lastDay: '2026-12-24',
          paid: true,
          halfDay: false,
        },
      },
    })
    expect(script.questions).toEqual([])
    expect(app.data.leaves).toEqual([
      { id: 1, employee: 'Ada Lovelace', from: '2026-12-21', to: '2026-12-24', paid: true, halfDay: false },
    ])
    await run(automation, {
      employee: 'Alan Turing',
      firstDay: '2027-01-04',
      lastDay: '2027-01-08',
      paid: false,
      halfDay: true,
    })
    expect(app.data.leaves.at(-1)).toEqual({
      id: 2,
      employee: 'Alan Turing',
      from: '2027-01-04',
      to: '2027-01-08',
      paid: false,
      halfDay: true,
    })
  }, 180_000)

  test('booking: a three-page wizard with radios, native date and time, a typeahead combobox, a multi-select, a spinner and a toast', async () => {
    const { automation, script } = await build({
      prompt: 'Book a meeting room and return the booking number',
      sample: {
        id: 'b1',
        input: {
          room: 'Turing room',
          date: '2026-12-03',
          startTime: '14:30',
          organiser: 'Grace Hopper',
          attendees: ['Ada Lovelace', 'Alan Turing'],
        },
        expect: { bookingNumber: { $type: 'string' } },
      },
    })
    expect(script.questions).toEqual([])
    expect(app.data.bookings).toHaveLength(1)
    expect(app.data.bookings[0]).toMatchObject({
      room: 'Turing room',
      date: '2026-12-03',
      start: '14:30',
      organiser: 'Grace Hopper',
    })
    const live = await run(automation, {
      room: 'Hopper room',
      date: '2026-12-10',
      startTime: '09:15',
      organiser: 'Katherine Johnson',
      attendees: ['Hedy Lamarr'],
    })
    const made = app.data.bookings.at(-1)!
    expect(made).toMatchObject({
      room: 'Hopper room',
      date: '2026-12-10',
      start: '09:15',
      organiser: 'Katherine Johnson',
      attendees: ['Hedy Lamarr'],
    })
    expect(live.result.bookingNumber).toBe(made.number)
  }, 240_000)

  test('employees: the row of the given email is found on a later page; its field sits on the second tab', async () => {
    const { automation } = await build(
      {
        prompt: 'Change the department of the employee with the given email',
        sample: { id: 'd1', input: { email: 'frances@acme.test', department: 'Support' } },
      },
      [{ kind: 'choose_outputs', answer: () => [] }],
    )
    expect(app.data.employees.find((e) => e.email === 'frances@acme.test')?.department).toBe('Support')
    await run(automation, { email: 'radia@acme.test', department: 'People' })
    expect(app.data.employees.find((e) => e.email === 'radia@acme.test')?.department).toBe('People')
    expect(
      app.data.employees
        .filter((e) => e.department === 'People')
        .map((e) => e.email)
        .sort(),
    ).toEqual(['barbara@acme.test', 'radia@acme.test'])
  }, 240_000)

  test('employees: removing one asks “Are you sure?” in a dialog, which the job confirms', async () => {
    const { automation } = await build({
      prompt: 'Remove the employee with the given email',
      sample: { id: 'r1', input: { email: 'edsger@acme.test' } },
    })
    expect(app.data.employees.some((e) => e.email === 'edsger@acme.test')).toBe(false)
    const before = app.data.employees.length
    await run(automation, { email: 'hedy@acme.test' })
    expect(app.data.employees.some((e) => e.email === 'hedy@acme.test')).toBe(false)
    expect(app.data.employees.length).toBe(before - 1)
  }, 240_000)
})
