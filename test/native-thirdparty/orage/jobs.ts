// The job a new Orage user wants first: put an appointment in the calendar on a given day (at a
// given time, if they say one), checked in Orage's own .ics file: exactly one new VEVENT with that
// title on that day, every other appointment as it was.
//
// How the owner does it, from Orage's own screens: File › New opens the "New appointment" window
// (Title, Location, Start: a date button, hour and minute boxes, End or Duration…); the date button
// opens "Pick the date", a month calendar with Today (which picks today and closes it) and OK;
// "Save and close" writes the file.
// The month calendars (the main window's and the date picker's) are one AT-SPI "calendar" element
// without children: the days in them are not on the screen the builder reads, so the owner can
// show the date picker only with its Today button.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { inputOf, option } from '../answers.ts'
import { dayFromToday, type OrageApp } from './index.ts'

const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())
const TITLE = beside(/^title$/i)
/** The Start line: its date button (named by the date it shows), then the hour and minute boxes. */
const START_DATE = beside(/^start$/i, 'button')
const START_HOUR = beside(/^start$/i, 'spinbutton')
const START_MINUTE = beside(/^:$/, 'spinbutton')

/** What the owner answers: which box takes each input, which button saves, and how it is done. */
function answer(q: Question): string | string[] | PointAt | ShowHow | undefined {
  if (q.kind === 'demonstrate') return SHOW
  const input = inputOf(q)
  const fields: Record<string, Pick> = { title: TITLE, date: START_DATE, start: START_HOUR }
  if (q.kind === 'point' && input && /^point at the field/i.test(q.text) && fields[input])
    return { pointAt: fields[input]! }
  if (q.kind === 'map_field' && input) {
    // The boxes have no names of their own: the owner names them by their captions where offered.
    const labels: Record<string, RegExp> = {
      title: /^title\b/i,
      date: /^start\b|date/i,
      start: /^start\b|hour/i,
    }
    return labels[input] ? (option(q, labels[input]!) ?? NONE_OF_THESE) : undefined
  }
  const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
  if (q.kind === 'map_field' && fromSample && fromSample in fields)
    return option(q, /^the sample’s/i) ?? NONE_OF_THESE
  if (q.kind === 'choose_submit') return option(q, /^save and close$/i, /^save$/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && /^point at the button/i.test(q.text))
    return { pointAt: named('button', /^save and close$/i) }
  return undefined
}

const SAMPLE = { title: 'Piano lesson', date: dayFromToday(0), start: '17:00' }
/** The owner adds the sample's appointment: today, so the date picker's Today button is its day. */
const SHOW: ShowHow = {
  show: [
    { click: named('menuitem', /^file$/i) },
    { click: named('menuitem', /^new$/i) },
    { type: SAMPLE.title, into: TITLE },
    { click: START_DATE },
    // Today picks the day and closes the date picker.
    { click: named('button', /^today$/i) },
    { type: '17', into: START_HOUR },
    { type: '00', into: START_MINUTE },
    { click: named('button', /^save and close$/i) },
  ],
}

/** Add an appointment on a day (at a time, if given); nothing is returned. */
export const addAppointment: GauntletJob<OrageApp> = {
  app: 'orage',
  name: 'add an appointment on a day',
  method: 'POST',
  path: '/appointments',
  prompt:
    'Add an appointment to my Orage calendar with this title on the given day (date as YYYY-MM-DD), starting at the given time (HH:MM) if there is one, and save it',
  samples: () => [{ input: SAMPLE }],
  answer,
  live: (app) => {
    const before = new Map(app.events().map((e) => [e.uid, e.lines.join('\n')]))
    const wanted: { title: string; date: string; start?: string }[] = [
      { title: 'Haircut at Salon Verde', date: dayFromToday(4), start: '14:30' },
      { title: 'Call the plumber', date: dayFromToday(9) },
    ]
    return wanted.map((want) => ({
      input: want,
      check: () => {
        const events = app.events()
        const found = events.filter((e) => e.summary === want.title)
        if (found.length !== 1)
          return `${found.length} appointments titled “${want.title}”, expected exactly 1`
        const event = found[0]!
        if (event.date !== want.date) return `“${want.title}” is on ${event.date}, expected ${want.date}`
        if (want.start && event.start !== want.start)
          return `“${want.title}” starts at ${event.start ?? 'no time (all day)'}, expected ${want.start}`
        for (const [uid, lines] of before) {
          const now = events.find((e) => e.uid === uid)
          if (now?.lines.join('\n') !== lines) return `appointment ${uid} changed or is gone`
        }
        const extra = events.filter((e) => !before.has(e.uid) && !wanted.some((w) => w.title === e.summary))
        if (extra.length) return `other appointments were added: ${extra.map((e) => e.summary).join(', ')}`
        return undefined
      },
    }))
  },
}

export const orageJobs = [addAppointment]
