import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { findMatches, indexTree } from '../../../src/automation/index.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import type { InputLeaf } from '../../../src/builder/input-leaves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { expectedReads, type OutputContext } from '../../../src/builder/outputs/outputs.ts'
import { secondSend } from '../../../src/builder/submit/follow-through.ts'
import { compareExpect } from '../../../src/builder/verify/verify.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'

// Issue 8, item 5: lists come back as arrays of objects. Recorded on Debian's DokuWiki (a wiki
// nobody here wrote) with the real browser driver: its start page, then its search results for
// "invoice" (snapshots/capture.ts).
const load = async (name: string) =>
  (await Bun.file(join(import.meta.dir, 'snapshots', `${name}.json`)).json()) as Snapshot

const prompt = 'Search the team wiki for a word and return the list of matching pages'

async function resultsContext(): Promise<OutputContext> {
  const before = await load('dokuwiki-search-before')
  const after = await load('dokuwiki-search-results')
  const ending = classifyEnding(before.root, after.root, [], ['invoice'])
  if (!ending) throw new Error('the results page is no ending')
  return {
    ending,
    after: after.root,
    inputs: ['invoice'],
    reading: readPrompt(prompt),
    submitLabel: 'Search',
  }
}

describe('a list output reads the results the search brought up', () => {
  test('{"$type":"array"} becomes a rows read of the matching pages, not of the site menus', async () => {
    const ctx = await resultsContext()
    const { steps, missing } = expectedReads(ctx, { pages: { $type: 'array' } })
    expect(missing).toEqual([])
    const [step] = steps
    expect(step).toMatchObject({ kind: 'read', source: 'rows', into: 'pages' })
    // The selector finds one list, and reading it gives the two pages found, nothing else.
    const matches = step!.target!.fingerprints.flatMap((f) => findMatches(indexTree(ctx.after), f))
    expect(new Set(matches).size).toBe(1)
    const rows = readRows(matches[0]!)
    expect(rows.map((r) => r.text)).toEqual(['invoice_archive', 'invoice_rules'])
    expect(step!.target!.description).toContain('Matching pagenames')
  })

  test('a list given by example is checked against the rows read', () => {
    const rows = [{ text: 'invoice_archive' }, { text: 'invoice_rules' }]
    expect(compareExpect({ pages: rows }, { pages: ['invoice_rules'] })).toEqual([])
    expect(compareExpect({ pages: rows }, { pages: ['holiday_plan'] })[0]).toContain('holiday_plan')
    expect(compareExpect({ pages: rows }, { pages: { $type: 'array' } })).toEqual([])
    expect(compareExpect({ pages: 'invoice_rules' }, { pages: { $type: 'array' } })[0]).toContain(
      'expected a array',
    )
  })

  test('a search has no preview: its results’ “Toggle Search Tools” is never pressed as a second send', async () => {
    const ctx = await resultsContext()
    const before = await load('dokuwiki-search-before')
    const box = indexTree(before.root).all.find((e) => e.role === 'textbox')!
    // The search box stays on the results page, as a preview's form would.
    expect(secondSend(ctx.ending, 'Search', ctx.reading, ctx.after, [box])).toBeUndefined()
    const create = readPrompt('Create a page with the given title and text')
    expect(secondSend(ctx.ending, 'Search', create, ctx.after, [box])).toBeUndefined()
  })
})

describe('a record named by the caller is opened by the address the app links show', () => {
  test('DokuWiki: “page” goes into ?id= of the edit link, and words only for keys that name a record', async () => {
    const { urlPatterns, namesARecord } = await import('../../../src/builder/explore/url-route.ts')
    const start = await load('dokuwiki-search-before')
    const page: InputLeaf = { key: 'page', path: 'page', value: 'release_checklist', source: 'body' }
    expect(namesARecord(page)).toBe(true)
    const templates = urlPatterns([start], [page], 'http://app/doku.php?id=start').map((p) => p.template)
    expect(templates).toContain('/doku.php?id={{page}}&do=edit')
    const text: InputLeaf = { ...page, key: 'text', path: 'text', value: 'hello' }
    expect(namesARecord(text)).toBe(false)
    expect(urlPatterns([start], [text], 'http://app/doku.php?id=start')).toEqual([])
  })
})

describe('a value read inside one of several like items is read in the item showing the sample’s own value', () => {
  test('Radicale: the new address book’s URL is read in the card titled {{title}}, not by its place', async () => {
    const { findGenerated } = await import('../../../src/builder/outputs/outputs.ts')
    const { renderSelector, resolveSelector } = await import('../../../src/automation/index.ts')
    const after = (await load('radicale-collections')).root
    // Before the submit, the list had every card but the new one (“Family”).
    const before: typeof after = structuredClone(after)
    // (found by hand: indexTree caches its index per root, and this tree is edited afterwards)
    const find = (e: typeof after): typeof after | undefined =>
      e.automationId === 'collectionsscene' ? e : e.children.map(find).find(Boolean)
    const section = find(before)!
    section.children = section.children.filter((c) => !c.children.some((h) => h.name.startsWith('Family')))
    const ending = classifyEnding(before, after, [], ['Family', 'Family list'])!
    const ctx: OutputContext = {
      ending,
      after,
      inputs: ['Family', 'Family list'],
      values: [
        { path: 'title', value: 'Family' },
        { path: 'description', value: 'Family list' },
      ],
      reading: readPrompt('Create an address book with the given title and return its address'),
      submitLabel: 'Create',
    }
    const found = findGenerated(ctx, 'address')!
    expect(found.token).toBe('http://app/office/family/')
    expect(found.step.target!.fingerprints[0]).toMatchObject({ by: 'inRow', rowText: '{{title}}' })
    // A live call for another title reads that card's address, wherever the card sits.
    const press = resolveSelector(after, renderSelector(found.step.target!, { title: 'Press contacts' }))
    expect(press.status === 'found' && press.element.name).toBe('http://app/office/press/')
  })
})

describe('an action in a card is taken in the card showing the sample’s value', () => {
  test('Radicale: “Edit” sits in a little list inside the card; the card titled {{title}} is the row', async () => {
    const { rowSelector } = await import('../../../src/builder/explore/explore-moves.ts')
    const { renderSelector, resolveSelector } = await import('../../../src/automation/index.ts')
    const root = (await load('radicale-collections')).root
    const index = indexTree(root)
    const edits = index.all.filter((e) => e.role === 'link' && e.name === 'Edit')
    const title: InputLeaf = { key: 'title', path: 'title', value: 'Suppliers', source: 'body' }
    const found = rowSelector(index, edits[2]!, [title])
    expect(found?.selector.fingerprints[0]).toMatchObject({ by: 'inRow', rowText: '{{title}}' })
    // The card's URL (…/office/suppliers/) also shows the word, in a list item with no Edit: not the row.
    const family = resolveSelector(root, renderSelector(found!.selector, { title: 'Family' }))
    expect(family.status === 'found' && family.element).toBe(edits[0]!)
  })
})
