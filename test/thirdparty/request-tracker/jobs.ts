// Jobs a small company's helpdesk would want from its Request Tracker, in the caller's words ("open
// a ticket for this person", "the ticket with this number", "mark it resolved"), each checked in
// RT's own database. RT asks for a sign-in first: every job carries root's username and password.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, inside, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { type RequestTracker, RT_PASSWORD, RT_USER } from './app.ts'

const secrets = { username: RT_USER, password: RT_PASSWORD }

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label.trim()))
    if (found) return found.value
  }
  return undefined
}
/** The values of all options whose labels match (a multiple choice). */
const options = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label)).map((o) => o.value)
  return picked.length ? picked : undefined
}
/** The caller's input a map_field question is about (“Where should the value of “subject” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
/** The caller's word a map_option question is about (“… has no option called “resolved” …”). */
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i')

/** The owner points at the first element on the screen of one of these roles named like this. */
const pointAt = (roles: RegExp, name: RegExp): PointAt => ({
  pointAt: (e) => roles.test(e.role) && name.test(e.name),
})
const FIELD = /^(textbox|searchbox|combobox|listbox|textarea)$/
const BUTTON = /^(button|link)$/
const SIGN_IN = /^(log ?in|sign ?in)$/i

/**
 * What the owner answers about one of RT's forms: which field takes each input (by the labels
 * they know), which button sends it (the sign-in form's when that is the one asked about), which
 * of a drop-down's options a caller's word is (the option of that very name), and which of the
 * page's values the caller asked for. What is not offered, they point at (a value by where the
 * page shows it, `shown`).
 */
function owner(
  fields: Record<string, RegExp>,
  send: RegExp,
  outputs?: RegExp,
  shown?: Record<string, RegExp>,
) {
  return (q: Question): string | string[] | PointAt | undefined => {
    const input = inputOf(q)
    const field = input ? fields[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    if (q.kind === 'point' && field && /^point at the field/i.test(q.text)) return pointAt(FIELD, field)
    if (q.kind === 'map_option') {
      const word = wordOf(q)
      return word ? (option(q, exactly(word)) ?? NONE_OF_THESE) : undefined
    }
    if (q.kind === 'choose_submit') return option(q, send) ?? option(q, SIGN_IN) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text)) return pointAt(BUTTON, send)
    if (q.kind === 'choose_outputs' && outputs) return options(q, outputs)
    // Asked where a value of the sample is shown, the owner points at that value on the page.
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected) return pointAt(/./, exactly(expected))
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key && shown?.[key]) return pointAt(/./, shown[key])
    return undefined
  }
}

/** Open a ticket for a customer in a queue and return its number. */
export const openTicket: GauntletJob<RequestTracker> = {
  app: 'request-tracker',
  name: 'open a ticket, return its number',
  method: 'POST',
  path: '/tickets',
  prompt:
    "Open a new ticket in the given queue for this customer's email, with this subject and description, and return the ticket number",
  secrets,
  samples: () => [
    {
      input: {
        queue: 'IT Support',
        requestor: 'maria.lopez@example.com',
        subject: 'Cannot print to the second-floor printer',
        description: 'Every print job stays in the queue since this morning.',
      },
      expect: { ticketNumber: { $type: 'string' } },
    },
  ],
  // The owner knows RT's create form: Queue, Requestors, Subject, the message box, and Create.
  answer: owner(
    {
      queue: /^queue/i,
      requestor: /requestor/i,
      subject: /^subject/i,
      description: /message|describe|content|rich text|editor/i,
    },
    /^create$/i,
    /ticket|number|^#|\bid\b/i,
    // The new ticket's page says “Ticket 12 created in queue …” and heads it “#12: subject”.
    { ticketNumber: /ticket \d+ created|^#\d+:/i },
  ),
  live: (rt) =>
    [
      {
        queue: 'Facilities',
        requestor: 'tom.becker@example.com',
        subject: 'Meeting room 3 projector has no signal',
        description: 'The HDMI cable at the table gives no picture.',
      },
      {
        queue: 'IT Support',
        requestor: 'li.wei@example.com',
        subject: 'New starter needs a laptop on Monday',
        description: 'Li starts in accounts; a standard laptop with the finance tools.',
      },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const found = rt.tickets().filter((t) => t.subject === want.subject)
        if (found.length !== 1)
          return `${found.length} tickets with subject “${want.subject}”, expected exactly 1`
        const ticket = found[0]!
        if (ticket.queue !== want.queue)
          return `the ticket was opened in queue ${ticket.queue}, not ${want.queue}`
        if (ticket.requestors.join() !== want.requestor)
          return `the ticket's requestors are ${JSON.stringify(ticket.requestors)}, expected [${want.requestor}]`
        const text = ticket.description.replace(/\s+/g, ' ').trim()
        if (!text.includes(want.description))
          return `the ticket's description is ${JSON.stringify(ticket.description.slice(0, 200))}`
        // "#12", "12" or "Ticket 12" all name ticket 12; exactly one number, and it must be this one's.
        const numbers = String(r.ticketNumber ?? '').match(/\d+/g) ?? []
        if (numbers.length !== 1 || Number(numbers[0]) !== ticket.id)
          return `ticketNumber ${JSON.stringify(r.ticketNumber)} is not the new ticket's number ${ticket.id}`
        return undefined
      },
    })),
}

/** Look a ticket up by its number (a path parameter) and return its subject, status and queue. */
export const ticketByNumber: GauntletJob<RequestTracker> = {
  app: 'request-tracker',
  name: 'look up a ticket by number',
  method: 'GET',
  path: '/tickets/:number',
  prompt: 'Look up the ticket with this number and tell me its subject, its status and which queue it is in',
  secrets,
  samples: (rt) => {
    const [number] = rt.addTickets([
      {
        queue: 'IT Support',
        subject: 'Password reset for the payroll system',
        description: 'Locked out after three tries.',
        requestor: 'nina.park@example.com',
      },
    ])
    return [
      {
        input: { number: String(number) },
        expect: { subject: 'Password reset for the payroll system', status: 'new', queue: 'IT Support' },
      },
    ]
  },
  // The owner goes by number: the search box takes it (Enter goes), the ticket shows the rest.
  answer: owner({ number: /search|ticket|number|^id/i }, /^(search|go|open)$/i, /subject|status|queue/i),
  live: (rt) => {
    const wanted = [
      { queue: 'Facilities', subject: 'Leaking tap in the kitchen', status: 'open', owner: RT_USER },
      { queue: 'General', subject: 'Invoice copy for March', status: 'resolved' },
    ]
    const ids = rt.addTickets(wanted.map((w) => ({ ...w, requestor: 'omar.haddad@example.com' })))
    return wanted.map((want, i) => ({
      input: { number: String(ids[i]) },
      check: (r) => {
        const stored = rt.ticket(ids[i]!)
        if (stored?.subject !== want.subject || stored.status !== want.status || stored.queue !== want.queue)
          return `the ticket itself changed: ${JSON.stringify(stored)}`
        const same = (v: unknown, w: string) =>
          String(v ?? '')
            .trim()
            .toLowerCase() === w.toLowerCase()
        return same(r.subject, want.subject) && same(r.status, want.status) && same(r.queue, want.queue)
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected subject “${want.subject}”, status ${want.status}, queue ${want.queue}`
      },
    }))
  },
}

/** How the owner changes a ticket's status by hand. */
const statusShown = (number: string, status: string): ShowHow => ({
  show: [
    { type: number, into: (e) => e.role === 'textbox' && /^search tickets/i.test(e.name) },
    { key: 'Enter' },
    { click: (e) => e.role === 'link' && e.name === 'Basics' },
    { click: beside(/^status:$/i, 'combobox') },
    { click: inside(status, /\bopen new stalled resolved\b/, /^(text|option)$/) },
    { click: (e) => e.role === 'button' && e.name === 'Save Changes' },
  ],
})

/** Change the status of the ticket with a number (resolved, stalled, open …). */
export const setStatus: GauntletJob<RequestTracker> = {
  app: 'request-tracker',
  name: 'change the status of a ticket by number',
  method: 'POST',
  path: '/tickets/:number/status',
  prompt: 'Change the status of the ticket with this number to the given status, for example resolved',
  secrets,
  samples: (rt) => {
    const [number] = rt.addTickets([
      {
        queue: 'IT Support',
        subject: 'Outlook asks for the password again and again',
        description: 'Since the update on Tuesday.',
        requestor: 'eva.novak@example.com',
        status: 'open',
        owner: RT_USER,
      },
    ])
    return [{ input: { number: String(number), status: 'resolved' } }]
  },
  // The owner changes it on the ticket's basics (Status) and saves; RT's status names are theirs.
  // Asked to show how: the ticket found by its number in the search box, Basics, Status, Save Changes.
  answer: (q) =>
    q.kind === 'demonstrate'
      ? statusShown(/number “(\d+)”/.exec(q.text)?.[1] ?? '', 'resolved')
      : owner(
          { status: /^status/i, number: /search|ticket|number|^id/i },
          /^(save changes|save|update ticket)$/i,
        )(q),
  live: (rt) => {
    const seeded = [
      { queue: 'Facilities', subject: 'Desk lamp broken at desk 14', status: 'open', owner: RT_USER },
      { queue: 'IT Support', subject: 'Shared drive is read-only', status: 'new' },
      { queue: 'IT Support', subject: 'Monitor flickers at desk 9', status: 'open', owner: RT_USER },
    ]
    const ids = rt.addTickets(seeded.map((s) => ({ ...s, requestor: 'jon.smith@example.com' })))
    const calls: [number, string][] = [
      [ids[0]!, 'resolved'],
      [ids[1]!, 'stalled'],
    ]
    return calls.map(([id, status]) => ({
      input: { number: String(id), status },
      check: () => {
        const stored = rt.ticket(id)
        if (stored?.status !== status) return `ticket ${id} has status ${stored?.status}, expected ${status}`
        const want = seeded[ids.indexOf(id)]!
        if (stored.subject !== want.subject || stored.queue !== want.queue)
          return `ticket ${id} changed otherwise: ${JSON.stringify(stored)}`
        const other = rt.ticket(ids[2]!)
        if (other?.status !== 'open') return `another ticket changed: ${JSON.stringify(other)}`
        return undefined
      },
    }))
  },
}

export const requestTrackerJobs = [openTicket, ticketByNumber, setStatus]
