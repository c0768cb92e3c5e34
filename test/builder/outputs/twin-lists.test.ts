import { describe, expect, test } from 'bun:test'
import { indexTree } from '../../../src/automation/index.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { Ending } from '../../../src/builder/observe/classify.ts'
import { type OutputContext, rowsRead } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement, UiRole } from '../../../src/protocol/elements.ts'

// A wiki's search results (MediaWiki): “Page title matches” and “Page text matches”, each a list
// showing the same page. Either is the list; two lists showing different rows stay a question.
let refs = 0
const el = (role: UiRole, name: string, children: UiElement[] = []): UiElement => ({
  ref: `r${++refs}`,
  role,
  name,
  states: [],
  children,
})
const list = (pages: string[]) =>
  el(
    'list',
    '',
    pages.map((p) => el('listitem', '', [el('link', p), el('text', `Every ${p.toLowerCase()} page.`)])),
  )
const results = (title: string[], text: string[]) =>
  el('window', 'Search results', [
    el('heading', 'Page title matches'),
    list(title),
    el('heading', 'Page text matches'),
    list(text),
  ])
const context = (after: UiElement): OutputContext => ({
  ending: {
    kind: 'screen',
    message: '',
    appeared: indexTree(after).all.filter((e) => e !== after),
  } as unknown as Ending,
  after,
  inputs: ['invoice'],
  reading: readPrompt('Search the team wiki for a word and return the list of matching pages'),
  submitLabel: 'Search',
})

describe('two lists with the same evidence', () => {
  test('showing the very same rows, the first is read', () => {
    const step = rowsRead(context(results(['Invoice rules'], ['Invoice rules'])), 'pages')
    expect(step?.source).toBe('rows')
    expect(step?.target.description).toContain('Page title matches')
  })
  test('showing different rows, they are a question', () => {
    const step = rowsRead(context(results(['Invoice rules'], ['Invoice rules', 'Invoice archive'])), 'pages')
    expect(step).toBeUndefined()
  })
})
