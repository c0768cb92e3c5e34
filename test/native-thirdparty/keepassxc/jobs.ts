// Jobs a person would want from their KeePassXC password database, in their words ("add a
// password", "what's my user name for …", "change the user name of …"), each checked in the
// database file itself with keepassxc-cli (data.ts). The database opens at KeePassXC's unlock
// screen: every job carries the master password as its secret. KeePassXC 2.7.4 saves after every
// change by default ("Automatically save after every change"), so the prompts do not ask to save.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ScreenElement, ShowHow } from '../../gauntlet/types.ts'
import { inputOf } from '../answers.ts'
import type { NativeRunningApp } from '../types.ts'
import { type KeeEntry, liveEntries, MASTER_PASSWORD } from './data.ts'

const secrets = { password: MASTER_PASSWORD }
const db = (a: NativeRunningApp) => a.dataFiles[0]!

/** Whether box `outer` holds the top-left corner of box `inner`. */
const holds = (outer: ScreenElement['bounds'], inner: ScreenElement['bounds']) =>
  inner.x >= outer.x - 2 &&
  inner.y >= outer.y - 2 &&
  inner.x <= outer.x + outer.width &&
  inner.y <= outer.y + outer.height
/**
 * KeePassXC's password and user name boxes have no name of their own: each is the text box inside
 * a group ("Password field") or an editable drop-down ("Username field") that has the name.
 */
const boxIn =
  (outer: RegExp): Pick =>
  (e, all) =>
    e.role === 'textbox' &&
    all.some((o) => o !== e && o.role !== 'textbox' && outer.test(o.name.trim()) && holds(o.bounds, e.bounds))
const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())
const PASSWORD = boxIn(/^password field$/i)
const USERNAME = boxIn(/^username field$/i)
const TITLE = named('textbox', /^title field$/i)
const URL = named('textbox', /^url field$/i)
const OK = named('button', /^ok$/i)
const cell =
  (text: string): Pick =>
  (e) =>
    e.role === 'cell' && e.name.trim() === text

/** The unlock screen, when it shows: the master password, then Unlock. */
const UNLOCK: ShowHow['signIn'] = {
  when: named('button', /^unlock$/i),
  steps: [{ type: MASTER_PASSWORD, into: PASSWORD }, { click: named('button', /^unlock$/i) }],
}

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value

/**
 * The owner's answers: the entry form's boxes by their names (the password and user name boxes by
 * the field around them), OK to send it (Unlock on the unlock screen), the values asked for, and the
 * whole task shown when asked.
 */
function owner(opts: {
  fields: Record<string, Pick>
  labels: Record<string, RegExp>
  /** The button that sends the form (none for a look-up: the entry shows on a click). */
  send?: RegExp
  outputs?: RegExp
  shown?: Record<string, PointAt>
  show: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    const label = input ? opts.labels[input] : undefined
    if (q.kind === 'map_field' && label) return option(q, label) ?? NONE_OF_THESE
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && fromSample in opts.labels)
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text) && opts.fields[input])
      return { pointAt: opts.fields[input]!, elseNotHere: true }
    const send = opts.send
    if (q.kind === 'choose_submit')
      return (send && option(q, send)) ?? option(q, /^unlock$/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && send && /^point at the button/i.test(q.text))
      return { pointAt: (e) => e.role === 'button' && send.test(e.name.trim()) }
    if (q.kind === 'choose_outputs' && opts.outputs) {
      const picked = q.options.filter((o) => opts.outputs!.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected)
      return { pointAt: (e) => e.name.trim() === expected || e.value === expected }
    return undefined
  }
}

/** What differs between the entries a call should have left alone, before and now (by title). */
function othersChanged(before: KeeEntry[], now: KeeEntry[], skip: string[]): string | undefined {
  const key = (e: KeeEntry) => JSON.stringify([e.title, e.username, e.password, e.url, e.notes, e.group])
  const left = before.filter((e) => !skip.includes(e.title)).map(key)
  const kept = now.filter((e) => !skip.includes(e.title)).map(key)
  const gone = left.filter((k) => !kept.includes(k))
  const added = kept.filter((k) => !left.includes(k))
  if (gone.length || added.length)
    return `other entries changed: gone ${gone.join('; ') || 'none'}, new ${added.join('; ') || 'none'}`
  return undefined
}

interface NewEntry {
  title: string
  username: string
  password: string
  url: string
}

/** Add an entry (title, user name, password, URL) and return its title. */
export const addEntry: GauntletJob<NativeRunningApp> = {
  app: 'keepassxc',
  name: 'add an entry, return its title',
  method: 'POST',
  path: '/passwords',
  prompt:
    'Add a new entry to my password database in KeePassXC with this title, username, password and URL, ' +
    'and return its title',
  secrets,
  samples: () => [
    {
      input: {
        title: 'Allotment Society',
        username: 'plot14',
        password: 'Runner-Bean-88',
        url: 'https://allotments.example',
      },
      expect: { title: 'Allotment Society' },
    },
  ],
  // The owner knows the form of New Entry… (the toolbar's first entry button): Title, Username,
  // Password and URL, then OK; KeePassXC saves the database by itself.
  answer: owner({
    fields: { title: TITLE, username: USERNAME, password: PASSWORD, url: URL },
    labels: {
      title: /^title/i,
      username: /^user ?name/i,
      password: /^password/i,
      url: /^url/i,
    },
    send: /^ok$/i,
    outputs: /title/i,
    shown: { title: { pointAt: TITLE } },
    show: {
      signIn: UNLOCK,
      show: [
        { click: named('button', /^new entry/i) },
        { type: 'Allotment Society', into: TITLE },
        { type: 'plot14', into: USERNAME },
        { type: 'Runner-Bean-88', into: PASSWORD },
        { type: 'https://allotments.example', into: URL },
        { click: OK },
      ],
    },
  }),
  live: (a) => {
    const before = liveEntries(db(a))
    const wanted: NewEntry[] = [
      {
        title: 'Climbing Wall',
        username: 'amorgan.climbs',
        password: 'Chalk-Harness-314',
        url: 'https://booking.climbingwall.example',
      },
      {
        title: 'Dentist Portal',
        username: 'alice.morgan',
        password: 'Enamel-Brush-902',
        url: 'https://patients.smiledental.example',
      },
    ]
    return wanted.map((want) => ({
      input: { ...want },
      check: (r) => {
        const now = liveEntries(db(a))
        const found = now.filter((e) => e.title === want.title)
        if (found.length !== 1) return `${found.length} entries titled “${want.title}”, expected exactly 1`
        const e = found[0]!
        for (const k of ['username', 'password', 'url'] as const)
          if (e[k] !== want[k])
            return `the entry's ${k} is ${JSON.stringify(e[k])}, expected ${JSON.stringify(want[k])}`
        const others = othersChanged(
          before,
          now,
          wanted.map((w) => w.title),
        )
        if (others) return others
        return String(r.title ?? '').trim() === want.title
          ? undefined
          : `returned title ${JSON.stringify(r.title)}, expected “${want.title}”`
      },
    }))
  },
}

/** The user name and URL of the entry with a title. */
export const lookUpEntry: GauntletJob<NativeRunningApp> = {
  app: 'keepassxc',
  name: "look up an entry's username and URL by title",
  method: 'GET',
  path: '/passwords/login',
  prompt:
    'Look up the entry with this title in my KeePassXC password database and tell me its username and URL',
  secrets,
  samples: () => [
    {
      input: { title: 'Webmail' },
      expect: { username: 'alice.morgan@example.com', url: 'https://mail.example.com' },
    },
  ],
  // The owner clicks the entry in the list: its row shows the Username and URL, and the preview
  // below shows the Username again.
  answer: owner({
    fields: {},
    labels: {},
    outputs: /user ?name|url/i,
    shown: {
      username: { pointAt: cell('alice.morgan@example.com') },
      url: { pointAt: cell('https://mail.example.com') },
    },
    show: { signIn: UNLOCK, show: [{ click: cell('Webmail') }] },
  }),
  live: (a) =>
    ['Bank of Leeds', 'Home Router'].map((title) => ({
      input: { title },
      check: (r) => {
        const found = liveEntries(db(a)).filter((e) => e.title === title)
        if (found.length !== 1) return `harness: ${found.length} entries titled “${title}”`
        const e = found[0]!
        const username = String(r.username ?? '').trim()
        const url = String(r.url ?? '').trim()
        return username === e.username && url.replace(/\/$/, '') === e.url.replace(/\/$/, '')
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected username “${e.username}” and URL “${e.url}”`
      },
    })),
}

/** Change the user name of the entry with a title (that entry only). */
export const changeUsername: GauntletJob<NativeRunningApp> = {
  app: 'keepassxc',
  name: 'change the username of an entry by title',
  method: 'PATCH',
  path: '/passwords/username',
  prompt: 'In KeePassXC, change the username of the password entry with this title to the new username',
  secrets,
  samples: () => [{ input: { title: 'Home Router', username: 'router-admin' } }],
  // The owner opens the entry (a click on its row, then Edit Entry…), replaces the Username and
  // clicks OK; KeePassXC saves by itself.
  answer: owner({
    fields: { username: USERNAME },
    labels: { username: /^user ?name/i },
    send: /^ok$/i,
    show: {
      signIn: UNLOCK,
      show: [
        { click: cell('Home Router') },
        { click: named('button', /^edit entry/i) },
        { type: 'router-admin', into: USERNAME },
        { click: OK },
      ],
    },
  }),
  live: (a) => {
    const before = liveEntries(db(a))
    const calls = [
      { title: 'Library Card', username: 'M0051977' },
      { title: 'Bank of Leeds', username: 'alice.morgan.1987' },
    ]
    return calls.map((call) => ({
      input: call,
      check: () => {
        const now = liveEntries(db(a))
        const found = now.filter((e) => e.title === call.title)
        if (found.length !== 1) return `${found.length} entries titled “${call.title}”, expected exactly 1`
        const e = found[0]!
        const old = before.find((b) => b.title === call.title)
        if (!old) return `harness: no entry titled “${call.title}” before the calls`
        if (e.username !== call.username)
          return `its username is “${e.username}”, expected “${call.username}”`
        if (e.password !== old.password || e.url !== old.url) return 'its password or URL changed too'
        if (now.filter((x) => x.username === call.username).length !== 1)
          return `another entry also has the username “${call.username}”`
        return othersChanged(
          before,
          now,
          calls.map((c) => c.title),
        )
      },
    }))
  },
}

export const keepassxcJobs = [addEntry, lookUpEntry, changeUsername]
