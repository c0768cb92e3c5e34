// Jobs a team would want from its TiddlyWiki, in the caller's words (a "note" with a title, text
// and tags, not a "tiddler"), each checked in the .tid files the wiki's server stores.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ScreenElement, ShowHow } from '../../gauntlet/types.ts'
import type { Note, TiddlyWiki } from './app.ts'

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label))
    if (found) return found.value
  }
  return undefined
}
/**
 * The caller's input a question is about (“Where should the value of “title” …”, “Nothing on
 * this screen is free to take “tags” …”).
 */
const inputOf = (q: Question) => /(?:value of|free to take) “([^”]+)”/.exec(q.text)?.[1]
/** Asked where an input goes on the screen: “Point at the field where …” or “… Point at the field where it goes”. */
const asksForField = (q: Question) => q.kind === 'point' && /point at the field/i.test(q.text)
/** Asked whether a text typed while showing is one of the caller's inputs (`title`), or always the same. */
const doubtOf = (q: Question) =>
  /the sample’s `([^`]+)`(?: and `[^`]+`)*, or always the same/i.exec(q.text)?.[1]

const FIELD = /^(textbox|searchbox|combobox|textarea)$/

type Bounds = ScreenElement['bounds']
/** Whether two boxes sit on one line (their heights overlap). */
const level = (a: Bounds, b: Bounds) => a.y < b.y + b.height && a.y + a.height > b.y
/** Whether box `outer` holds the top-left corner of box `inner`. */
const within = (outer: Bounds, inner: Bounds) =>
  inner.x >= outer.x - 4 &&
  inner.y >= outer.y - 4 &&
  inner.x <= outer.x + outer.width &&
  inner.y <= outer.y + outer.height
/** A point answer by a pick of the screen; when the screen has no such thing, the owner says so. */
const pointBy = (pick: Pick): PointAt => ({ pointAt: pick, elseNotHere: true })

/**
 * The editor's title box: the first text box of the tiddler being edited (it reads “New Tiddler”
 * until the owner types the title), above the tag box.
 */
const titleBox: Pick = (e, all) => {
  if (e.role !== 'textbox') return false
  const editor = all.find((c) => c.role !== 'textbox' && c.name.trim() === 'Editor')
  const first = editor && all.find((b) => b.role === 'textbox' && within(editor.bounds, b.bounds))
  return first ? first === e : e.value === 'New Tiddler'
}
/** A text box of the editor by its own name (“tag name”, “Type the text for this tiddler”). */
const named =
  (name: RegExp): Pick =>
  (e) =>
    e.role === 'textbox' && name.test(e.name.trim())
/** The tag box's “add” button, on the tag box's line (the field row below has an “add” of its own). */
const addTag: Pick = (e, all) =>
  e.role === 'button' &&
  e.name.trim() === 'add' &&
  all.some((t) => t.role === 'textbox' && t.name.trim() === 'tag name' && level(t.bounds, e.bounds))
/** The ✓ at the top right of the tiddler being edited. */
const confirm: Pick = (e) => /^(button|link)$/.test(e.role) && /^confirm changes/i.test(e.name.trim())
/** The sidebar's search box: the box on the line of its “advanced search” (magnifier) button, left of it. */
const searchBox: Pick = (e, all) =>
  e.role === 'textbox' &&
  all.some(
    (b) =>
      b.role === 'button' &&
      b.name.trim() === 'advanced search' &&
      level(b.bounds, e.bounds) &&
      e.bounds.x < b.bounds.x,
  )
/** Where the owner puts each input in the wiki's editor. */
const EDITOR: Record<string, RegExp> = {
  title: /title/i,
  text: /type the text|body|^text/i,
  tags: /tag name|^tags?\b/i,
}

/** The note the owner creates while teaching (the sample's). */
const sampleNote = {
  title: 'Release checklist',
  text: 'Tag the build and update the changelog.',
  tags: ['release', 'process'],
}
/** The text a doubt question is about (“Is “release” (in “tag name”) the sample’s …”). */
const doubtful = (q: Question) => /^is “([^”]*)”/i.exec(q.text)?.[1]

/**
 * How the owner creates the sample's note: “new tiddler” in the sidebar opens the editor with the
 * title “New Tiddler” in its top box, which they clear and retitle; the text goes in the text area;
 * each tag is typed in the tag box and added with its “add”; the ✓ saves.
 */
const createShown: ShowHow = {
  show: [
    { click: (e) => e.role === 'button' && e.name.trim() === 'new tiddler' },
    { click: titleBox },
    { key: 'Ctrl+A' },
    { key: 'Backspace' },
    { type: sampleNote.title, into: titleBox },
    { type: sampleNote.text, into: named(/^type the text/i) },
    ...sampleNote.tags.flatMap((tag) => [{ type: tag, into: named(/^tag name$/i) }, { click: addTag }]),
    { click: confirm },
  ],
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
  // “Confirm changes to this tiddler”) that saves; what is not offered, they point at. Asked to
  // show how, they click “new tiddler” in the sidebar and fill the editor (createShown).
  answer: (q) => {
    if (q.kind === 'demonstrate') return createShown
    const save = [/confirm changes/i, /^(ok|done|save)\b/i]
    if (q.kind === 'choose_submit') return option(q, ...save) ?? NONE_OF_THESE
    // Asked whether a text typed while showing is the caller's title or text: it is when it is that
    // value; a tag typed in the tag box is neither (“release” is no title, though the title has it).
    const doubt = doubtOf(q)
    if (q.kind === 'map_field' && doubt) {
      const value = doubt === 'title' || doubt === 'text' ? sampleNote[doubt] : undefined
      return value?.toLowerCase() === doubtful(q)?.toLowerCase()
        ? (option(q, /^the sample’s/i) ?? NONE_OF_THESE)
        : NONE_OF_THESE
    }
    const input = inputOf(q)
    const field = input ? EDITOR[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    // The title box has no name of its own: the owner points at the editor's top box.
    if (asksForField(q) && input === 'title') return pointBy(titleBox)
    if (asksForField(q) && field) return pointBy((e) => FIELD.test(e.role) && field.test(e.name))
    if (q.kind === 'point' && /^point at the button/i.test(q.text)) return pointBy(confirm)
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
  // Matches show as you type in the sidebar's search box; the owner points at the matches of the
  // sample's word when asked (the “All matches:” list: titles, texts and tags), and shows how by
  // typing the word there (searchShown).
  answer: (q) => {
    if (q.kind === 'demonstrate') return searchShown
    if (q.kind === 'choose_submit') return option(q, /^search$/i, /search/i, /press enter/i) ?? NONE_OF_THESE
    const input = inputOf(q)
    if (q.kind === 'map_field' && input === 'query') return option(q, /search/i) ?? NONE_OF_THESE
    // Asked whether the word typed while showing is the caller's query: it is.
    if (q.kind === 'map_field' && doubtOf(q) === 'query') return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (asksForField(q) && input === 'query') return pointBy(searchBox)
    // No button sends it; the magnifier beside the box opens the same search in Advanced Search.
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return pointBy((e) => e.role === 'button' && e.name.trim() === 'advanced search')
    if (q.kind === 'point' && /^point at the (list\b|.*\btitles?\b)/i.test(q.text)) return pointBy(firstMatch)
    if (q.kind === 'choose_outputs') {
      const matches = q.options.filter((o) => MATCH.test(o.label)).map((o) => o.value)
      const all = q.options.filter((o) => /all matches/i.test(o.label)).map((o) => o.value)
      if (!matches.length) return NONE_OF_THESE
      return q.multiple ? (all.length ? all : matches) : (all[0] ?? matches[0])
    }
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

/** The titles of the sample's notes with “invoice”, as the search lists them. */
const MATCH = /all matches|invoice rules|supplier payments/i

/**
 * The first row of the search's “All matches:” list (its “Title matches:” list holds only the
 * titles with the word); on a screen without it, the first listed note with the word.
 */
const firstMatch: Pick = (e, all) => {
  const heading = all.find((t) => t.role === 'text' && /^all matches:?$/i.test(t.name.trim()))
  if (!heading)
    return (
      /^(link|listitem|row|cell|button)$/.test(e.role) &&
      /^(invoice rules|supplier payments)$/i.test(e.name.trim())
    )
  const rows = all
    .filter(
      (l) =>
        l.role === 'link' &&
        l.bounds.y >= heading.bounds.y + heading.bounds.height - 2 &&
        Math.abs(l.bounds.x - heading.bounds.x) < 24,
    )
    .sort((a, b) => a.bounds.y - b.bounds.y)
  return rows[0] === e
}

/** How the owner searches for the sample's word: typed into the sidebar's search box, matches show as they type. */
const searchShown: ShowHow = { show: [{ type: 'invoice', into: searchBox }] }

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
