// Jobs a team would want from its TiddlyWiki, in the caller's words (a "note" with a title, text
// and tags, not a "tiddler"), each checked in the .tid files the wiki's server stores.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, PointAt } from '../../gauntlet/types.ts'
import type { Note, TiddlyWiki } from './app.ts'

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label))
    if (found) return found.value
  }
  return undefined
}
/** The caller's input a map_field question is about (“Where should the value of “title” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]

/** The owner points at the first element on the screen of one of these roles named like this. */
const pointAt = (roles: RegExp, name: RegExp): PointAt => ({
  pointAt: (e) => roles.test(e.role) && name.test(e.name),
})
const FIELD = /^(textbox|searchbox|combobox|textarea)$/
/** Where the owner puts each input in the wiki's editor. */
const EDITOR: Record<string, RegExp> = {
  title: /title/i,
  text: /type the text|body|^text/i,
  tags: /tag name|^tags?\b/i,
}

/** How long the browser may take to save a note to the server after the call answers. */
const SAVE_GRACE_MS = 8_000

export const createNote: GauntletJob<TiddlyWiki> = {
  app: 'tiddlywiki',
  name: 'create a note (title, text, tags)',
  method: 'POST',
  path: '/notes',
  prompt: 'Create a new note in the team wiki with the given title, text and tags',
  samples: () => [
    {
      input: {
        title: 'Release checklist',
        text: 'Tag the build and update the changelog.',
        tags: ['release', 'process'],
      },
    },
  ],
  // The wiki's owner knows its editor: a title box, the text area, the tag box and the ✓ (“ok”,
  // “Confirm changes to this tiddler”) that saves; what is not offered, they point at.
  answer: (q) => {
    const save = [/confirm changes/i, /^(ok|done|save)\b/i]
    if (q.kind === 'choose_submit') return option(q, ...save) ?? NONE_OF_THESE
    const input = inputOf(q)
    const field = input ? EDITOR[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    if (q.kind === 'point' && field && /^point at the field/i.test(q.text)) return pointAt(FIELD, field)
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return pointAt(/^(button|link)$/, save[0]!)
    return undefined
  },
  live: (wiki) =>
    [
      { title: 'Oncall rota', text: 'Alice covers the first week of March.', tags: ['oncall', 'team'] },
      { title: 'Coffee machine', text: 'Descale it every Friday.', tags: ['kitchen'] },
    ].map((want) => ({
      input: want,
      check: (r) => {
        if ('error' in r) return `the call answered an error: ${JSON.stringify(r).slice(0, 200)}`
        const stored = wiki.note(want.title, SAVE_GRACE_MS)
        if (!stored) return `no note titled “${want.title}” was saved`
        if (stored.text.trim() !== want.text)
          return `note “${want.title}” has the text ${JSON.stringify(stored.text.slice(0, 200))}`
        const tags = [...stored.tags].sort()
        if (JSON.stringify(tags) !== JSON.stringify([...want.tags].sort()))
          return `note “${want.title}” has the tags ${JSON.stringify(stored.tags)}, expected ${JSON.stringify(want.tags)}`
        return undefined
      },
    })),
}

export const searchNotes: GauntletJob<TiddlyWiki> = {
  app: 'tiddlywiki',
  name: 'search notes for a word, return the titles',
  method: 'GET',
  path: '/notes/search',
  prompt: 'Search the team wiki for a word and return the list of titles of the matching notes',
  samples: (wiki) => {
    wiki.putNotes([
      { title: 'Invoice rules', text: 'Every invoice needs a PO number.', tags: ['finance'] },
      { title: 'Supplier payments', text: 'Pay each invoice within 30 days.', tags: ['finance'] },
      { title: 'Holiday plan', text: 'Book holiday two weeks ahead.', tags: ['team'] },
      { title: 'Printer setup', text: 'The printer on floor 2 needs toner.', tags: ['office'] },
    ])
    return [{ input: { query: 'invoice' }, expect: { titles: { $type: 'array' } } }]
  },
  // Matches show as you type; the owner points at the matches of the sample's word when asked.
  answer: (q) => {
    if (q.kind === 'choose_submit') return option(q, /^search$/i, /search/i)
    if (q.kind === 'point' && /^point at the list/i.test(q.text))
      return pointAt(/^(link|listitem|row|cell|button)$/, /^(invoice rules|supplier payments)$/i)
    return undefined
  },
  live: (wiki) => {
    wiki.putNotes([
      { title: 'Office move', text: 'Move the printer to floor 3 in June.', tags: ['office'] },
      { title: 'Summer rota', text: 'Check the holiday calendar before swapping shifts.', tags: ['team'] },
    ])
    return [
      { input: { query: 'holiday' }, check: (r) => titlesFound(wiki, r, 'holiday') },
      { input: { query: 'printer' }, check: (r) => titlesFound(wiki, r, 'printer') },
    ]
  },
}

export const tiddlyWikiJobs = [createNote, searchNotes]

/** The returned list names every stored note with the word (title, text or tags) and no other. */
function titlesFound(wiki: TiddlyWiki, result: Record<string, unknown>, word: string): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const has = (n: Note) => [n.title, n.text, ...n.tags].some((s) => s.toLowerCase().includes(word))
  const notes = wiki.notes()
  const want = notes.filter(has).map((n) => n.title)
  const not = notes.filter((n) => !has(n)).map((n) => n.title)
  if (want.length < 2) return `harness: the wiki holds ${want.length} note(s) with “${word}”, expected 2`
  const text = JSON.stringify(list).toLowerCase()
  const missing = want.filter((t) => !text.includes(t.toLowerCase()))
  const extra = not.filter((t) => text.includes(t.toLowerCase()))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}
