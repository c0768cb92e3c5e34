// Jobs an office would want from its webmail, in the caller's words ("search my mail", "the message
// with this subject"), behind Roundcube's sign-in. Each live call is checked against the mail
// Dovecot really holds (the Maildir files), including messages delivered just before the call.
import type { Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob } from '../../gauntlet/types.ts'
import { ROUNDCUBE_PASSWORD, ROUNDCUBE_USER, type Roundcube, type StoredMessage } from './app.ts'

const secrets = { username: ROUNDCUBE_USER, password: ROUNDCUBE_PASSWORD }

/** The values of the options whose labels match (the first match per pattern). */
const pick = (q: Question, ...labels: RegExp[]) => {
  const values = labels
    .map((l) => q.options.find((o) => l.test(o.label))?.value)
    .filter((v): v is string => v !== undefined)
  if (!values.length) return undefined
  return q.multiple ? values : values[0]
}

/** Search the mailbox for a word, return the subjects of the messages found. */
export const searchMail: GauntletJob<Roundcube> = {
  app: 'roundcube',
  name: 'search mail, return the subjects',
  method: 'GET',
  path: '/mail/search',
  prompt: 'Search my mail for a word and return the list of matching subjects',
  secrets,
  samples: () => [{ input: { query: 'invoice' }, expect: { subjects: { $type: 'array' } } }],
  // The owner knows the mail screen: the word goes in the search box, the search is the submit,
  // and what comes back is the Subject column.
  answer: (q) => {
    if (q.kind === 'choose_submit') return pick(q, /search/i)
    if (q.kind === 'map_field') return pick(q, /search/i)
    if (q.kind === 'choose_outputs') return pick(q, /subject/i)
    return undefined
  },
  live: (app) => {
    app.addMessage({
      from: 'Copy & Co Sales <sales@copyandco.example>',
      subject: 'Your printer toner order has shipped',
      date: new Date('2025-03-13T12:10:00Z'),
      body: 'Your order of four toner cartridges has shipped and arrives within two working days.',
    })
    return ['lunch', 'printer'].map((query) => ({
      input: { query },
      check: (r) => subjectsFound(app, r, query),
    }))
  },
}

/** Open the message with a subject, return who sent it and when. */
export const readMessage: GauntletJob<Roundcube> = {
  app: 'roundcube',
  name: 'read a message by subject, return sender and date',
  method: 'GET',
  path: '/mail/message',
  prompt: 'Open the message with the given subject and return its sender and date',
  secrets,
  samples: () => [
    {
      input: { subject: 'Invoice 2291 for February deliveries' },
      expect: { sender: { $type: 'string' }, date: { $type: 'string' } },
    },
  ],
  answer: (q) => {
    if (q.kind === 'choose_submit') return pick(q, /search/i)
    if (q.kind === 'map_field') return pick(q, /search/i)
    if (q.kind === 'choose_outputs') return pick(q, /^(from|sender)\b/i, /^date\b/i)
    return undefined
  },
  live: (app) => {
    const fresh = [
      {
        from: 'Paul Richter <paul@richter-catering.example>',
        subject: 'Catering quote for the spring party',
        date: new Date('2025-03-14T12:00:00Z'),
        body: 'Our quote for 40 guests is attached. It includes drinks and service staff.\n\nPaul Richter',
      },
      {
        from: 'Anna Schulz <anna.schulz@lakeside-hotel.example>',
        subject: 'Room block confirmation',
        date: new Date('2025-03-17T11:45:00Z'),
        body: 'We confirm a block of eight rooms from 19 to 21 March.\n\nAnna Schulz\nLakeside Hotel',
      },
    ]
    for (const m of fresh) app.addMessage(m)
    return fresh.map(({ subject }) => ({
      input: { subject },
      check: (r) => senderAndDate(app, r, subject),
    }))
  },
}

/**
 * The subjects of the mail kept in a folder, taught by showing it once: the owner clicks the
 * folder in the folder list beside the messages (a tree of links, as mail, feed and file apps
 * have), and the list in the pane beside it is what comes back. The live calls name other
 * folders, so a build that kept the sample's folder answers wrongly, and the check says so.
 */
export const folderSubjects: GauntletJob<Roundcube> = {
  app: 'roundcube',
  name: 'list the subjects of the mail in a folder',
  method: 'GET',
  path: '/mail/folder',
  prompt: 'List the subjects of the messages kept in the given mail folder',
  secrets,
  demonstrate: true,
  samples: () => [{ input: { folder: 'Suppliers' }, expect: { subjects: { $type: 'array' } } }],
  answer: (q) => {
    if (q.kind === 'demonstrate')
      return { show: [{ click: (e) => e.role === 'link' && /^suppliers\b/i.test(e.name.trim()) }] }
    if (q.kind === 'choose_outputs') return pick(q, /subject/i)
    return undefined
  },
  live: (app) => {
    app.addFolderMessage('Projects', {
      from: 'Sofia Marin <sofia.marin@office.example>',
      subject: 'Intranet mock-ups for review',
      date: new Date('2025-03-14T09:30:00Z'),
      body: 'The mock-ups are on the shared drive.',
    })
    return ['Projects', 'Archive'].map((folder) => ({
      input: { folder },
      check: (r) => folderListed(app, r, folder),
    }))
  },
}

/**
 * A new mail folder under a parent, taught by showing it once in Settings › Folders: the form
 * opens in a frame beside the folder list, and the parent is a drop-down of the existing folders.
 */
export const createFolder: GauntletJob<Roundcube> = {
  app: 'roundcube',
  name: 'create a folder under a parent',
  method: 'POST',
  path: '/mail/folders',
  prompt: 'Create a mail folder with the given name inside the given parent folder',
  secrets,
  demonstrate: true,
  samples: () => [{ input: { name: 'Quotes', parent: 'Suppliers' } }],
  answer: (q) => {
    if (q.kind === 'demonstrate')
      return {
        show: [
          { click: (e) => /button|link/.test(e.role) && /^settings$/i.test(e.name.trim()) },
          { click: (e) => /button|link/.test(e.role) && /^folders$/i.test(e.name.trim()) },
          { click: (e) => /button|link/.test(e.role) && /^create$/i.test(e.name.trim()) },
          { type: 'Quotes', into: (e) => e.role === 'textbox' && /folder name/i.test(e.name) },
          // The skin draws the drop-down's list itself (the keyboard does not choose in it), over
          // the form on the right; the folder list on the left has a "Suppliers" link too.
          { click: (e) => e.role === 'combobox' && /parent/i.test(e.name) },
          {
            click: (e, all) =>
              e.role === 'link' &&
              e.name.trim() === 'Suppliers' &&
              all.every(
                (o) => o.role !== 'link' || o.name.trim() !== 'Suppliers' || o.bounds.x <= e.bounds.x,
              ),
          },
          { click: (e) => e.role === 'button' && /^save$/i.test(e.name.trim()) },
        ],
      }
    return undefined
  },
  live: (app) =>
    [
      ['Spring', 'Projects'],
      ['2024', 'Archive'],
    ].map(([name, parent]) => ({
      input: { name, parent },
      check: () => {
        const made = app.folders().filter((f) => f.split('/').pop() === name)
        if (made.length !== 1) return `${made.length} folders named ${name}: ${app.folders().join(', ')}`
        return made[0] === `${parent}/${name}`
          ? undefined
          : `${name} was made as ${made[0]}, not under ${parent}`
      },
    })),
}

/**
 * A message found by its subject, moved into a folder: taught by showing it once, through the
 * message's "More" menu and the folder list that "Move to…" opens over the page (the folder list
 * beside the messages has links of the same names).
 */
export const moveMessage: GauntletJob<Roundcube> = {
  app: 'roundcube',
  name: 'move a message to a folder',
  method: 'POST',
  path: '/mail/move',
  prompt: 'Move the message with the given subject into the given folder',
  secrets,
  demonstrate: true,
  samples: () => [{ input: { subject: 'Delivery schedule for week 11', folder: 'Suppliers' } }],
  answer: (q) => {
    if (q.kind === 'demonstrate')
      return {
        show: [
          { click: (e) => e.role === 'link' && e.name.trim() === 'Delivery schedule for week 11' },
          { click: (e) => /button|link/.test(e.role) && /^more$/i.test(e.name.trim()) },
          { click: (e) => /link|menuitem|button/.test(e.role) && /^move to/i.test(e.name.trim()) },
          {
            click: (e, all) =>
              e.role === 'link' &&
              e.name.trim() === 'Suppliers' &&
              all.every(
                (o) => o.role !== 'link' || o.name.trim() !== 'Suppliers' || o.bounds.x <= e.bounds.x,
              ),
          },
        ],
      }
    return undefined
  },
  live: (app) =>
    [
      ['Team lunch on Friday', 'Archive'],
      ['Workshop agenda and travel details', 'Projects'],
    ].map(([subject, folder]) => ({
      input: { subject, folder },
      check: () => {
        const moved = app.folderMessages(folder!).some((m) => m.subject === subject)
        const left = app.messages().some((m) => m.subject === subject)
        if (left) return `“${subject}” is still in the inbox`
        return moved ? undefined : `“${subject}” is not in ${folder}`
      },
    })),
}

export const roundcubeJobs = [searchMail, readMessage, folderSubjects, createFolder, moveMessage]

/**
 * Each item of a list of subjects is a subject: the string itself, or an object with a field
 * holding it. A row's whole text ("Sofia Marin 2025-03-12 11:55 Lunch order…") is not a subject.
 */
function notSubjects(list: unknown[], subjects: string[]): string | undefined {
  const known = new Set(subjects.map((s) => s.trim().toLowerCase()))
  const isOne = (v: unknown) => typeof v === 'string' && known.has(v.trim().toLowerCase())
  const bad = list.filter((item) =>
    item && typeof item === 'object' ? !Object.values(item).some(isOne) : !isOne(item),
  )
  return bad.length ? `items that are not a subject: ${JSON.stringify(bad).slice(0, 200)}` : undefined
}

function folderListed(app: Roundcube, result: Record<string, unknown>, folder: string): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const want = app.folderMessages(folder).map((m) => m.subject)
  const others = [
    ...app.messages(),
    ...app
      .folders()
      .filter((f) => f !== folder)
      .flatMap((f) => app.folderMessages(f)),
  ]
  if (!want.length) return `the folder ${folder} is empty (test data missing)`
  const missing = want.filter((s) => !text.includes(s.toLowerCase()))
  const extra = others.map((m) => m.subject).filter((s) => text.includes(s.toLowerCase()))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list has mail from outside ${folder}: ${extra.join(', ')}`
  return notSubjects(list, want)
}

function subjectsFound(app: Roundcube, result: Record<string, unknown>, word: string): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const stored = app.messages()
  const want = stored.filter((m) => m.subject.toLowerCase().includes(word)).map((m) => m.subject)
  const not = stored.filter((m) => !m.subject.toLowerCase().includes(word)).map((m) => m.subject)
  if (!want.length) return `the inbox has no message about ${word} (test data missing)`
  const missing = want.filter((s) => !text.includes(s.toLowerCase()))
  const extra = not.filter((s) => text.includes(s.toLowerCase()))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return notSubjects(list, want)
}

function senderAndDate(app: Roundcube, result: Record<string, unknown>, subject: string): string | undefined {
  const stored = app.messages().filter((m) => m.subject === subject)
  if (stored.length !== 1) return `${stored.length} stored messages have the subject ${subject}`
  const m = stored[0]!
  const strings = Object.entries(result).filter(([, v]) => typeof v === 'string') as [string, string][]
  const name = /^(.*?)\s*</.exec(m.from)?.[1]?.toLowerCase() ?? ''
  const address = /<([^>]+)>/.exec(m.from)?.[1]?.toLowerCase() ?? m.from.toLowerCase()
  const sender = strings.find(
    ([, v]) => v.toLowerCase().includes(address) || (!!name && v.toLowerCase().includes(name)),
  )
  if (!sender) return `no value names the sender ${m.from}: ${JSON.stringify(result).slice(0, 300)}`
  const date = strings.find(([k, v]) => k !== sender[0] && sameDay(v, m))
  if (!date) return `no value gives the date ${m.date}: ${JSON.stringify(result).slice(0, 300)}`
  return undefined
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** A date as a person would accept it: the stored Date header's day in any common spelling. */
function sameDay(value: string, m: StoredMessage): boolean {
  const d = new Date(m.date)
  const y = d.getUTCFullYear()
  const mo = d.getUTCMonth() + 1
  const day = d.getUTCDate()
  const p = (n: number) => String(n).padStart(2, '0')
  const v = value.toLowerCase()
  const spelled = [
    `${y}-${p(mo)}-${p(day)}`,
    `${p(day)}.${p(mo)}.${y}`,
    `${day}.${mo}.${y}`,
    `${mo}/${day}/${y}`,
    `${p(mo)}/${p(day)}/${y}`,
    `${p(day)}/${p(mo)}/${y}`,
  ]
  if (spelled.some((s) => v.includes(s))) return true
  const month = MONTHS[mo - 1]!
  const words = new RegExp(`\\b(${day}\\s+${month}\\w*,?\\s+${y}|${month}\\w*\\s+${day},?\\s+${y})\\b`)
  if (words.test(v)) return true
  const parsed = Date.parse(value)
  return !Number.isNaN(parsed) && Math.abs(parsed - d.getTime()) < 14 * 3600_000
}
