// `read` with `source: rows` over grids without headers, cards and single values (issue 21, item
// 4): `parts` by cell position or by a card's text parts, `cards` as children or flat runs, `pluck`.
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { readRows } from '../../src/automation/read-rows.ts'
import { Automation } from '../../src/protocol/automation.ts'
import { el } from '../helpers/elements.ts'

const link = (name: string, href: string) => el('link', name, [], { href })

// A webmail message list: an ARIA grid of gridcells, no header row, a selection checkbox first.
const mail = el('table', 'Messages', [
  el('row', '', [
    el('cell', '', [el('checkbox', 'Select')]),
    el('cell', 'Alice'),
    el('cell', '', [link('Printer broken', 'http://app/m/1')]),
    el('cell', 'Mar 3'),
  ]),
  el('row', '', [
    el('cell', '', [el('checkbox', 'Select')]),
    el('cell', 'Bob'),
    el('cell', '', [link('VPN down', 'http://app/m/2')]),
    el('cell', 'Mar 4'),
  ]),
])

// A post list of <article>s (listitems): a heading with its link, a byline, an excerpt.
const article = (title: string, href: string, by: string, excerpt: string) =>
  el('listitem', '', [el('heading', title, [link(title, href)]), el('text', by), el('text', excerpt)])
const posts = el('generic', 'Posts', [
  el('heading', 'Latest posts'),
  article('Hello world', 'http://app/p/1', 'by Ada', 'The first post.'),
  article('Second thoughts', 'http://app/p/2', 'by Grace', 'More words.'),
])

// The same cards with their wrappers gone: a heading, then its text, side by side, and a pager.
const flat = el('generic', 'Results', [
  el('heading', 'Hello world', [link('Hello world', 'http://app/p/1')]),
  el('text', 'The first post.'),
  el('heading', 'Second thoughts', [link('Second thoughts', 'http://app/p/2')]),
  el('text', 'More words.'),
  link('Next', 'http://app/?page=2'),
])

describe('rows without a header row', () => {
  test('parts read cells by position, or a part inside a cell, or its link', () => {
    const parts = {
      from: { cell: 2 },
      subject: { cell: 3, role: 'link' as const },
      url: { cell: 3, role: 'link' as const, href: true },
    }
    expect(readRows(mail, undefined, { parts })).toEqual([
      { from: 'Alice', subject: 'Printer broken', url: 'http://app/m/1' },
      { from: 'Bob', subject: 'VPN down', url: 'http://app/m/2' },
    ])
  })

  test('pluck gives one column as a list of strings', () => {
    expect(readRows(mail, undefined, { parts: { subject: { cell: 3 } }, pluck: 'subject' })).toEqual([
      'Printer broken',
      'VPN down',
    ])
  })
})

describe('cards', () => {
  test('each child of the card role is one item, {title, href, text} by default', () => {
    expect(readRows(posts, undefined, { cards: { role: 'listitem' } })).toEqual([
      { title: 'Hello world', href: 'http://app/p/1', text: 'by Ada The first post.' },
      { title: 'Second thoughts', href: 'http://app/p/2', text: 'by Grace More words.' },
    ])
  })

  test('parts pick a card’s text parts by role and position', () => {
    const parts = { title: { role: 'heading' as const }, author: { role: 'text' as const, nth: 1 } }
    expect(readRows(posts, undefined, { cards: { role: 'listitem' }, parts })).toEqual([
      { title: 'Hello world', author: 'by Ada' },
      { title: 'Second thoughts', author: 'by Grace' },
    ])
  })

  test('flat cards start at each heading; the pager after the last one is not part of it', () => {
    expect(readRows(flat, undefined, { cards: { role: 'heading', flat: true } })).toEqual([
      { title: 'Hello world', href: 'http://app/p/1', text: 'The first post.' },
      { title: 'Second thoughts', href: 'http://app/p/2', text: 'More words.' },
    ])
  })
})

describe('the read step schema', () => {
  const step = { kind: 'read', name: 'Read', target: { fingerprints: [{ by: 'automationId', ids: ['x'] }] } }
  const automation = (read: object) => ({
    version: 1,
    app: { url: 'http://app/' },
    steps: [read],
    scenarios: [],
  })
  test('old rows reads still load; parts, cards and pluck validate', () => {
    expect(Value.Check(Automation, automation({ ...step, source: 'rows', into: 'rows' }))).toBe(true)
    expect(
      Value.Check(
        Automation,
        automation({
          ...step,
          source: 'rows',
          into: 'posts',
          cards: { role: 'heading', flat: true },
          parts: { title: { role: 'heading' }, url: { cell: 2, href: true } },
          pluck: 'title',
        }),
      ),
    ).toBe(true)
    expect(
      Value.Check(Automation, automation({ ...step, source: 'rows', into: 'x', parts: { a: { cell: 0 } } })),
    ).toBe(false)
  })
})
