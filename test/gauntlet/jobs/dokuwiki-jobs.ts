// Jobs a team would want from its DokuWiki, in the caller's words (a "note" with a "title" and
// "body", not DokuWiki's page id and wiki text), each checked in the page files on disk.

import type { DokuWiki } from '../apps/dokuwiki.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

/** Write a wiki page: the page is reached by a URL built from its name, then its text is saved. */
export const writeNote: GauntletJob<DokuWiki> = {
  app: 'dokuwiki',
  name: 'write a team note (page create/edit)',
  method: 'POST',
  path: '/notes',
  prompt: 'Write a note on the team wiki: open the page named by the caller, put the text in and save it',
  samples: () => [{ input: { page: 'release_checklist', text: 'Tag the build and update the changelog.' } }],
  // DokuWiki's editor has Save, Preview and Cancel: the owner's submit is Save.
  answer: (q) => (q.kind === 'choose_submit' ? option(/^save$/i)(q) : undefined),
  live: (wiki) => [
    {
      input: { page: 'oncall_rota', text: 'Alice covers the first week of March.' },
      check: () => pageHas(wiki, 'oncall_rota', 'Alice covers the first week of March.'),
    },
    {
      input: { page: 'coffee_machine', text: 'Descale every Friday.' },
      check: () => pageHas(wiki, 'coffee_machine', 'Descale every Friday.'),
    },
  ],
}

/** Search the wiki and return the matching page names as a list. */
export const searchNotes: GauntletJob<DokuWiki> = {
  app: 'dokuwiki',
  name: 'search notes, return a list',
  method: 'GET',
  path: '/notes/search',
  prompt: 'Search the team wiki for a word and return the list of matching pages',
  samples: (wiki) => {
    seed(wiki)
    return [{ input: { query: 'invoice' }, expect: { pages: { $type: 'array' } } }]
  },
  answer: (q) => (q.kind === 'choose_submit' ? option(/search/i)(q) : undefined),
  live: () => [
    { input: { query: 'holiday' }, check: (r) => listHas(r, ['holiday_plan'], ['invoice_rules']) },
    { input: { query: 'printer' }, check: (r) => listHas(r, ['printer_setup'], ['holiday_plan']) },
  ],
}

export const dokuWikiJobs = [writeNote, searchNotes]

function seed(wiki: DokuWiki): void {
  wiki.putPage('invoice_rules', '====== Invoice rules ======\nEvery invoice needs a PO number.\n')
  wiki.putPage('holiday_plan', '====== Holiday plan ======\nBook holiday two weeks ahead.\n')
  wiki.putPage('printer_setup', '====== Printer setup ======\nThe printer on floor 2 needs toner.\n')
}

function pageHas(wiki: DokuWiki, id: string, text: string): string | undefined {
  const stored = wiki.page(id)
  if (stored === undefined) return `page ${id} was not created`
  const times = stored.split(text).length - 1
  return times === 1
    ? undefined
    : `page ${id} has the text ${times} times: ${JSON.stringify(stored.slice(0, 200))}`
}

function listHas(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase().replaceAll(' ', '_')
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}
