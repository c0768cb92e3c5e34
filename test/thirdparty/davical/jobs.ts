// Jobs a team admin would want from its DAViCal calendar server, in the caller's words ("add a user
// account", "what is this user's name and email", "which resources do we have"), each checked in
// DAViCal's own PostgreSQL database. Its users, resources and groups are "principals"; the admin
// UI asks for a sign-in first (user name and password on one form, sent with GO!): every job
// carries the admin's credentials.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { DAVICAL_PASSWORD, DAVICAL_USER, type Davical, type PrincipalType } from './app.ts'

const secrets = { username: DAVICAL_USER, password: DAVICAL_PASSWORD }

/** The values of the options whose labels match (the first only, unless the question is a multiple choice). */
const choose = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label.trim())).map((o) => o.value)
  if (!picked.length) return undefined
  return q.multiple ? picked : picked[0]
}
/** The caller's input a map_field question is about (“Where should the value of “email” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
/** The caller's word a map_option question is about (“… has no option called “Group” …”). */
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]

const link =
  (name: string): Pick =>
  (e) =>
    e.role === 'link' && e.name.trim() === name
const button =
  (name: string): Pick =>
  (e) =>
    e.role === 'button' && e.name.trim() === name
/** A value (all digits) on the same line as a caption and right of it ("Principal ID: 1001"). */
const numberBeside =
  (caption: RegExp): Pick =>
  (e, all) =>
    /^\d+$/.test(e.name.trim()) &&
    all.some(
      (c) =>
        caption.test(c.name.trim()) &&
        e.bounds.x > c.bounds.x &&
        e.bounds.y < c.bounds.y + c.bounds.height &&
        e.bounds.y + e.bounds.height > c.bounds.y,
    )
/** The ID link of the list's row whose Name cell is this username. */
const rowOf =
  (username: string): Pick =>
  (e, all) =>
    e.role === 'link' &&
    /^\d+$/.test(e.name.trim()) &&
    all.some(
      (c) =>
        c.role === 'cell' &&
        c.name.trim() === username &&
        e.bounds.y < c.bounds.y + c.bounds.height &&
        e.bounds.y + e.bounds.height > c.bounds.y,
    )

/** The sign-in form: "User Name:" and "Password:" boxes, and GO!. */
const SIGN_IN: ShowHow['signIn'] = {
  when: beside(/^user name:?$/i),
  steps: [
    { type: DAVICAL_USER, into: beside(/^user name:?$/i) },
    { type: DAVICAL_PASSWORD, into: beside(/^password:?$/i) },
    { click: button('GO!') },
  ],
}

/** Which of the app's words the caller's principal type is (the menu's "List …" entries, the form's drop-down). */
const TYPE_WORDS: Record<string, RegExp> = {
  person: /^(list )?(users?|persons?|people)$/i,
  resource: /^(list )?resources?$/i,
  group: /^(list )?groups?$/i,
}

/**
 * What the owner answers about DAViCal's screens: which box takes each input (by the captions they
 * know), that an input is not typed anywhere (it picks a row or a list), which button sends the form
 * (the sign-in's GO! when that is the one asked about), which option a caller's word is, which of
 * the screen's values the caller asked for, and where a value shows. Else they leave it unanswered.
 */
function owner(opts: {
  fields?: Record<string, RegExp>
  /** The box the owner points at for each input. */
  boxes?: Record<string, Pick>
  /** Inputs that are not typed into any box. */
  notTyped?: string[]
  send?: RegExp
  outputs?: RegExp
  shown?: Record<string, PointAt>
  show?: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    if (q.kind === 'map_field' && input) {
      const field = opts.fields?.[input]
      if (field) return choose(q, field) ?? NONE_OF_THESE
      if (opts.notTyped?.includes(input)) return NONE_OF_THESE
    }
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text)) {
      const box = opts.boxes?.[input]
      return box ? { pointAt: box } : undefined
    }
    if (q.kind === 'map_option') {
      const word = wordOf(q)?.trim().toLowerCase()
      if (!word) return undefined
      const label = TYPE_WORDS[word] ?? new RegExp(`^${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i')
      return choose(q, label) ?? NONE_OF_THESE
    }
    if (q.kind === 'choose_submit')
      return (opts.send && choose(q, opts.send)) ?? choose(q, /^go!?$/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text) && opts.send) {
      const send = opts.send
      return { pointAt: (e) => e.role === 'button' && send.test(e.name.trim()) }
    }
    if (q.kind === 'choose_outputs' && opts.outputs) {
      const outputs = opts.outputs
      const picked = q.options.filter((o) => outputs.test(o.label)).map((o) => o.value)
      return picked.length ? (q.multiple ? picked : picked[0]) : undefined
    }
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    // Asked where a value of the sample is shown, the owner points at that value on the screen.
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected)
      return {
        pointAt: (e) => e.name.trim().toLowerCase() === expected.toLowerCase() || e.value === expected,
      }
    return undefined
  }
}

/** Add a user account (a principal of type Person) and return the Principal ID DAViCal gives it. */
export const addUser: GauntletJob<Davical> = {
  app: 'davical',
  name: 'add a user account, return its id',
  method: 'POST',
  path: '/users',
  prompt:
    "Add a user account to our calendar server with this username, full name, email address and password, and return the new user's ID",
  secrets,
  samples: () => [
    {
      input: {
        username: 'priya',
        fullName: 'Priya Raman',
        email: 'priya.raman@example.org',
        password: 'Lantern-Quiet-42',
      },
      expect: { id: { $type: 'string' } },
    },
  ],
  // The owner knows "Create Principal" (shown when the pointer rests on User Functions): Username, the password twice
  // (Change Password, Confirm Password), Fullname, Email Address, a Person by default, then
  // Create; the page that follows shows the new Principal ID.
  answer: owner({
    fields: {
      username: /^username\b/i,
      password: /^(change|confirm) password/i,
      fullName: /full ?name/i,
      email: /e-?mail/i,
    },
    boxes: {
      username: beside(/^username:?$/i),
      password: beside(/^change password:?$/i),
      fullName: beside(/^fullname:?$/i),
      email: beside(/^email address:?$/i),
    },
    send: /^create$/i,
    outputs: /principal id|^id\b/i,
    shown: { id: { pointAt: numberBeside(/^principal id:?$/i) } },
    show: {
      signIn: SIGN_IN,
      show: [
        { hover: link('User Functions') },
        { click: link('Create Principal') },
        { type: 'priya', into: beside(/^username:?$/i) },
        { type: 'Lantern-Quiet-42', into: beside(/^change password:?$/i) },
        { type: 'Lantern-Quiet-42', into: beside(/^confirm password:?$/i) },
        { type: 'Priya Raman', into: beside(/^fullname:?$/i) },
        { type: 'priya.raman@example.org', into: beside(/^email address:?$/i) },
        { click: button('Create') },
      ],
    },
  }),
  live: (davical) =>
    [
      {
        username: 'omar',
        fullName: 'Omar Haddad',
        email: 'omar.haddad@example.org',
        password: 'Harbor-Violet-17',
      },
      {
        username: 'lucia',
        fullName: 'Lucía Ferrer',
        email: 'lucia.ferrer@example.org',
        password: 'Copper-Finch-93',
      },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const found = davical.principals().filter((p) => p.username === want.username)
        if (found.length !== 1)
          return `${found.length} principals named “${want.username}”, expected exactly 1`
        const user = found[0]!
        if (user.type !== 'Person' || !user.active)
          return `${want.username} is a ${user.type}, active ${user.active}`
        if (user.fullname !== want.fullName)
          return `the full name is “${user.fullname}”, expected “${want.fullName}”`
        if (user.email !== want.email) return `the email is “${user.email}”, expected “${want.email}”`
        if (!davical.passwordMatches(want.username, want.password))
          return `${want.username} cannot sign in with the password given`
        const numbers = String(r.id ?? '').match(/\d+/g) ?? []
        return numbers.length === 1 && Number(numbers[0]) === user.principalId
          ? undefined
          : `id ${JSON.stringify(r.id)} is not the new principal's ID ${user.principalId}`
      },
    })),
}

/** Look a user up by username (a path parameter) and return their full name and email address. */
export const userByName: GauntletJob<Davical> = {
  app: 'davical',
  name: 'look up a user by username, return full name and email',
  method: 'GET',
  path: '/users/:username',
  prompt:
    'Look up the user with this username on our calendar server and tell me their full name and email address',
  secrets,
  samples: (davical) => {
    davical.addUsers([
      { username: 'jsmith', fullName: 'John Smith', email: 'john.smith@example.org' },
      { username: 'jsmithson', fullName: 'Jo Smithson', email: 'jo@smithson.example' },
      { username: 'asato', fullName: 'Aiko Sato', email: 'aiko.sato@example.org' },
    ])
    return [
      { input: { username: 'jsmith' }, expect: { fullName: 'John Smith', email: 'john.smith@example.org' } },
    ]
  },
  // The owner opens the user list (User Functions), finds the row whose Name is the username and
  // opens it: Fullname and Email Address show in the principal's form (the list's row shows them
  // too, as Display Name and EMail).
  answer: owner({
    notTyped: ['username'],
    outputs: /full ?name|display name|e-?mail/i,
    show: {
      signIn: SIGN_IN,
      show: [{ click: link('User Functions') }, { click: rowOf('jsmith') }],
    },
  }),
  live: (davical) => {
    const wanted = [
      { username: 'jsmithson', fullName: 'Jo Smithson', email: 'jo@smithson.example' },
      { username: 'rkumar', fullName: 'Ravi Kumar', email: 'ravi.kumar@example.org' },
    ]
    // A look-alike: a username that ends the same way.
    davical.addUsers([
      ...wanted,
      { username: 'krkumar', fullName: 'Kiran Kumar', email: 'kiran@kumar.example' },
    ])
    return wanted.map((want) => ({
      input: { username: want.username },
      check: (r) => {
        const stored = davical.users().filter((u) => u.username === want.username)
        if (stored.length !== 1 || stored[0]!.fullname !== want.fullName || stored[0]!.email !== want.email)
          return `harness: user ${want.username} is stored as ${JSON.stringify(stored)}`
        const name = String(r.fullName ?? '').trim()
        const email = String(r.email ?? '').trim()
        return name === want.fullName && email.toLowerCase() === want.email
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected “${want.fullName}” and “${want.email}”`
      },
    }))
  },
}

/** The usernames of the (active) principals of one type: people, resources (rooms, projectors) or groups. */
export const principalsOfType: GauntletJob<Davical> = {
  app: 'davical',
  name: 'list the principals of a type',
  method: 'GET',
  path: '/principals',
  prompt:
    'List the usernames of the principals of this type on our calendar server (Person, Resource or Group)',
  secrets,
  samples: (davical) => {
    davical.addUsers([
      { username: 'room-harbour', fullName: 'Harbour Meeting Room', type: 'Resource' },
      { username: 'room-loft', fullName: 'Loft Room', type: 'Resource' },
      { username: 'projector-2', fullName: 'Projector 2', type: 'Resource' },
      { username: 'team-design', fullName: 'Design Team', type: 'Group' },
      { username: 'team-support', fullName: 'Support Team', type: 'Group' },
      { username: 'hkato', fullName: 'Hana Kato', email: 'hana.kato@example.org' },
    ])
    return [{ input: { type: 'Resource' }, expect: { usernames: { $type: 'array' } } }]
  },
  // The owner picks the list from the User Functions menu, shown on hover (List Users, List Resources, List
  // Groups); each list's Name column holds the usernames.
  answer: owner({
    notTyped: ['type'],
    outputs: /^name$|user ?name/i,
    show: {
      signIn: SIGN_IN,
      show: [{ hover: link('User Functions') }, { click: link('List Resources') }],
    },
  }),
  live: (davical) => {
    davical.addUsers([
      { username: 'team-finance', fullName: 'Finance Team', type: 'Group' },
      { username: 'van-white', fullName: 'White Van', type: 'Resource' },
    ])
    return (['Group', 'Person'] as PrincipalType[]).map((type) => ({
      input: { type },
      check: (r) => usernamesListed(davical, r, type),
    }))
  },
}

export const davicalJobs = [addUser, userByName, principalsOfType]

/** The returned list holds exactly the usernames of the active principals of this type, each once. */
function usernamesListed(davical: Davical, result: Record<string, unknown>, type: PrincipalType) {
  const all = davical.principals()
  const want = all.filter((p) => p.type === type && p.active).map((p) => p.username)
  const others = all.filter((p) => !want.includes(p.username)).map((p) => p.username)
  if (want.length < 2) return `harness: only ${want.length} ${type} principals`
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  // An item is a username, or a record one of whose values is the username.
  const names = list.map((item) =>
    (typeof item === 'object' && item ? Object.values(item) : [item]).map((v) => String(v).trim()),
  )
  const text = JSON.stringify(list).slice(0, 300)
  const missing = want.filter((u) => !names.some((n) => n.includes(u)))
  const extra = others.filter((u) => names.some((n) => n.includes(u)))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${text}`
  if (list.length !== want.length) return `list has ${list.length} entries, expected ${want.length}: ${text}`
  return undefined
}
