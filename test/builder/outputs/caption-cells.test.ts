import { describe, expect, test } from 'bun:test'
import { indexTree, renderSelector, resolveSelector } from '../../../src/automation/index.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { Ending } from '../../../src/builder/observe/classify.ts'
import { expectedReads, type OutputContext } from '../../../src/builder/outputs/outputs.ts'
import { designPlaceSelector } from '../../../src/builder/selector-design.ts'
import type { UiElement, UiRole } from '../../../src/protocol/elements.ts'

// A record's page laid out as a details table of plain cells, captions ending in a colon and
// several to a row (fossil's ticket view): “Ticket Hash:” | “e3f2… (1)” | …, the hash's own
// text followed by a count in brackets; a page title “View Ticket” beside a sign-in link.
let refs = 0
const el = (role: UiRole, name: string, children: UiElement[] = []): UiElement => ({
  ref: `r${++refs}`,
  role,
  name,
  states: [],
  children,
})
const hash = 'e3f2e5c2fb10ed3afaa1dcd174a87ab45df58fc5'
const ticketPage = (id: string) =>
  el('window', 'Project: View Ticket', [
    el('text', 'View Ticket'),
    el('link', 'admin'),
    el('table', '', [
      el('row', '', [
        el('cell', 'Ticket Hash:'),
        el('cell', `${id} (1)`, [el('generic', ''), el('text', id), el('text', '(1)')]),
      ]),
      el('row', '', [el('cell', 'Title:'), el('cell', 'Export crashes')]),
      el('row', '', [
        el('cell', 'Status:'),
        el('cell', 'Open'),
        el('cell', 'Type:'),
        el('cell', 'Code_Defect'),
      ]),
    ]),
  ])

function context(after: UiElement): OutputContext {
  const ending = {
    kind: 'screen',
    message: 'View Ticket',
    appeared: indexTree(after).all.filter((e) => e !== after),
  } as unknown as Ending
  return {
    ending,
    after,
    inputs: ['Export crashes', 'defect'],
    reading: readPrompt('Report a bug in the project tracker and return the ticket id'),
    submitLabel: 'Submit',
  }
}

describe('a details table of caption cells', () => {
  test('“ticketId” is the value beside “Ticket Hash:”, without the note in brackets after it', () => {
    const ctx = context(ticketPage(hash))
    const { steps, missing } = expectedReads(ctx, { ticketId: { $type: 'string' } })
    expect(missing).toEqual([])
    const found = resolveSelector(ctx.after, renderSelector(steps[0]!.target!, {}))
    expect(found.status === 'found' && found.element.name).toBe(hash)
  })

  test('a caption in a row of several is read by its own cell (“Type:” → Code_Defect)', () => {
    const ctx = context(ticketPage(hash))
    const { steps } = expectedReads(ctx, { ticketType: { $type: 'string' } })
    const found = steps[0]?.target && resolveSelector(ctx.after, renderSelector(steps[0].target, {}))
    expect(found?.status === 'found' && found.element.name).toBe('Code_Defect')
  })

  test('a mail’s headers captioned “Ticket created” are no ticket number, for all their dates and times', () => {
    const page = el('window', 'Ticket #3: Printer', [
      el('text', '- Ticket created'),
      el(
        'text',
        'Date: Thu, 26 Nov 2026 18:46:33 +0000 From: sam@example.com Subject: Printer To: help@example.com',
      ),
    ])
    expect(expectedReads(context(page), { ticketNumber: { $type: 'string' } }).missing).toEqual([
      'ticketNumber',
    ])
  })

  test('“#7: Export crashes” after opening a ticket is the ticket’s number, not an invoice’s', () => {
    const page = el('window', 'Ticket', [
      el('heading', '#7: Export crashes'),
      el('text', 'Thu Nov 26 18:59:17 2026'),
    ])
    const ctx = {
      ...context(page),
      reading: readPrompt('Open a ticket with this subject and return the ticket number'),
    }
    const { steps, missing } = expectedReads(ctx, { ticketNumber: { $type: 'string' } })
    expect(missing).toEqual([])
    expect(steps[0]!.extract).toBeDefined()
    expect(new RegExp(steps[0]!.extract!).exec('#7: Export crashes')?.[1]).toBe('7')
    expect(expectedReads(ctx, { invoiceNumber: { $type: 'string' } }).missing).toEqual(['invoiceNumber'])
  })

  test('a value cell pointed at is found after its caption cell on a record laid out with more rows', () => {
    const basics = (rows: [string, string][]) =>
      el('window', 'Ticket', [
        el(
          'table',
          '',
          rows.map(([k, v]) => el('row', '', [el('cell', k), el('cell', v)])),
        ),
      ])
    const sample = basics([
      ['Status:', 'open'],
      ['Queue:', 'IT Support'],
    ])
    const queue = indexTree(sample).all.find((e) => e.name === 'IT Support')!
    const selector = designPlaceSelector(sample, queue, 'the queue pointed at')
    expect(selector.fingerprints[0]).toEqual({ by: 'label', label: 'Queue', role: 'cell' })
    const other = basics([
      ['Status:', 'new'],
      ['Owner:', 'Nobody'],
      ['Queue:', 'Facilities'],
    ])
    const found = resolveSelector(other, renderSelector(selector, {}))
    expect(found.status === 'found' && found.element.name).toBe('Facilities')
  })

  test('a title beside a link names no id: “View Ticket” → “admin” is no evidence', () => {
    const page = el('window', 'Project: View Ticket', [el('text', 'View Ticket'), el('link', 'admin')])
    expect(expectedReads(context(page), { ticketId: { $type: 'string' } }).missing).toEqual(['ticketId'])
  })
})
