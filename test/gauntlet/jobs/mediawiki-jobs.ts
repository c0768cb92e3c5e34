// Jobs a team would want from its MediaWiki, in the caller's words ("a note" with a "title" and
// "text", not MediaWiki's page titles and wiki markup), each checked with MediaWiki's own scripts.
import type { MediaWiki } from '../apps/mediawiki.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

/** Write a wiki page: the page is opened by the address MediaWiki's links show, its text saved. */
export const writePage: GauntletJob<MediaWiki> = {
  app: 'mediawiki',
  name: 'write a wiki page',
  method: 'POST',
  path: '/wiki/pages',
  prompt: 'Write a page on the team wiki: open the page named by the caller, put the text in and save it',
  samples: () => [{ input: { page: 'Release_checklist', text: 'Tag the build and update the changelog.' } }],
  // The editor has "Save page", "Show preview", "Show changes" and "Cancel": the owner's is Save.
  answer: (q) => (q.kind === 'choose_submit' ? option(/save|publish/i)(q) : undefined),
  live: (wiki) =>
    [
      ['Oncall_rota', 'Alice covers the first week of March.'],
      ['Coffee_machine', 'Descale every Friday.'],
    ].map(([page, text]) => ({
      input: { page, text },
      check: () => {
        const stored = wiki.page(page!)
        if (stored === undefined) return `page ${page} was not created`
        return stored.split(text!).length - 1 === 1
          ? undefined
          : `page ${page} holds ${JSON.stringify(stored.slice(0, 200))}`
      },
    })),
}

/** Search the wiki and return the matching pages as a list. */
export const searchPages: GauntletJob<MediaWiki> = {
  app: 'mediawiki',
  name: 'search pages, return a list',
  method: 'GET',
  path: '/wiki/search',
  prompt: 'Search the team wiki for a word and return the list of matching pages',
  samples: (wiki) => {
    wiki.putPage('Invoice rules', 'Every invoice needs a PO number.')
    wiki.putPage('Holiday plan', 'Book holiday two weeks ahead.')
    wiki.putPage('Printer setup', 'The printer on floor 2 needs toner.')
    return [{ input: { query: 'invoice' }, expect: { pages: { $type: 'array' } } }]
  },
  answer: (q) => (q.kind === 'choose_submit' ? option(/search/i)(q) : undefined),
  live: () => [
    { input: { query: 'holiday' }, check: (r) => listHas(r, ['holiday plan'], ['invoice rules']) },
    { input: { query: 'toner' }, check: (r) => listHas(r, ['printer setup'], ['holiday plan']) },
  ],
}

export const mediaWikiJobs = [writePage, searchPages]

function listHas(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase().replaceAll('_', ' ')
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}
