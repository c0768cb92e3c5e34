import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { findMatches, indexTree, renderSelector, resolveSelector } from '../../../src/automation/index.ts'
import { generaliseText, leadSentence, outcomeSignature } from '../../../src/builder/generalise.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { expectedReads, type OutputContext } from '../../../src/builder/outputs/outputs.ts'
import { submitScore } from '../../../src/builder/submit/submit.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'

// Recorded on Debian's phpLiteAdmin (snapshots/capture.ts phpliteadmin): the insert form filled
// with a sample, the table it shows after the insert (every row, the new one last, its id only
// in the "id" column under a header row whose first cell spans the Edit/Delete cells), and a
// row's edit form with "Save Changes" and "Insert As New Row".
const load = async (name: string) =>
  (await Bun.file(join(import.meta.dir, 'snapshots', `${name}.json`)).json()) as Snapshot

const sample = { name: 'Ada Lovelace', email: 'ada@example.com', city: 'London', signupDate: '2026-11-20' }
const inputs = Object.values(sample)

async function insertedContext(): Promise<OutputContext> {
  const before = await load('phpliteadmin-insert-filled')
  const after = await load('phpliteadmin-inserted')
  const ending = classifyEnding(before.root, after.root, [], inputs)
  if (!ending) throw new Error('the table after the insert is no ending')
  return {
    ending,
    after: after.root,
    inputs,
    values: Object.entries(sample).map(([path, value]) => ({ path, value })),
    reading: readPrompt(
      'Insert a new row into the customers table with the given name and city, and return its id',
    ),
    submitLabel: 'Insert',
  }
}

const rowOf = (root: UiElement, text: string) =>
  indexTree(root).all.find((e) => e.role === 'row' && e.children.some((c) => c.name === text))!

describe('a generated id shown only in a table column', () => {
  test('"id" is read from the id cell of the row holding the sample, not from "1 row(s) inserted."', async () => {
    const ctx = await insertedContext()
    const { steps, missing } = expectedReads(ctx, { id: { $type: 'number' } })
    expect(missing).toEqual([])
    const step = steps[0]!
    const found = resolveSelector(ctx.after, renderSelector(step.target!, sample))
    expect(found.status).toBe('found')
    if (found.status !== 'found') return
    expect(found.element.name).toBe('4')
    expect(rowOf(ctx.after, 'Ada Lovelace').children).toContain(found.element)
  })

  test('the read follows the caller’s row, wherever it sits: another call reads its own row', async () => {
    const ctx = await insertedContext()
    const step = expectedReads(ctx, { id: { $type: 'number' } }).steps[0]!
    // As if the caller had inserted Lise Meitner: the selector rendered with her email finds row 2.
    const other = { ...sample, email: 'lise@example.com', name: 'Lise Meitner' }
    const rendered = renderSelector(step.target!, other)
    const first = rendered.fingerprints[0]!
    expect(first.by).toBe('inRow')
    const matches = findMatches(indexTree(ctx.after), first)
    expect(matches.map((e) => e.name)).toEqual(['2'])
  })
})

// Recorded on Debian's Adminer Editor (snapshots/capture.ts adminer-editor): the list it shows
// after a new product is saved, where the new row holds two numbers, its id and its category.
describe('a generated id in a row that holds other numbers', () => {
  const product = { name: 'Hedge shears', sku: 'GT-110', price: '31.5', categoryId: '1' }
  async function productContext(): Promise<OutputContext> {
    const before = await load('adminer-editor-insert-filled')
    const after = await load('adminer-editor-inserted')
    const inputs = Object.values(product)
    const ending = classifyEnding(before.root, after.root, [], inputs)
    if (!ending) throw new Error('the list after the insert is no ending')
    return {
      ending,
      after: after.root,
      inputs,
      values: Object.entries(product).map(([path, value]) => ({ path, value })),
      reading: readPrompt(
        'Add a new product with the given name, SKU, price and category, and return its id',
      ),
      submitLabel: 'Save',
    }
  }

  test('"id" is read under the id column of the caller’s own row, not by the sample’s value or place', async () => {
    const ctx = await productContext()
    const { steps, missing } = expectedReads(ctx, { id: { $type: 'number' } })
    expect(missing).toEqual([])
    const step = steps[0]!
    const own = resolveSelector(ctx.after, renderSelector(step.target!, product))
    expect(own.status === 'found' && own.element.name).toBe('4')
    expect(step.target!.fingerprints[0]!.by).toBe('inRow')
    // A live call that added “Kettle” reads Kettle's row (id 2), not the sample's row (4).
    const other = { ...product, name: 'Kettle', sku: 'KT-200' }
    const theirs = resolveSelector(ctx.after, renderSelector(step.target!, other))
    expect(theirs.status === 'found' && theirs.element.name).toBe('2')
    // A call whose row the list does not show reads nothing, never the sample's row by its place.
    const absent = { ...product, name: 'Garden hose', sku: 'GH-900' }
    expect(resolveSelector(ctx.after, renderSelector(step.target!, absent)).status).toBe('not-found')
  })
})

describe('a long message is known by its first sentence', () => {
  const message =
    '1 row(s) affected. UPDATE "customers" SET "name"=\'Isaac Newton\', "email"=\'isaac@example.com\', "city"=\'Cambridge\' WHERE ROWID = 5'
  test('the condition does not carry the record’s other values', () => {
    expect(leadSentence(message)).toBe('1 row(s) affected.')
    const { pattern, match } = generaliseText(message, ['isaac@example.com', 'Cambridge'], { lead: true })
    expect(match).toBe('regex')
    const other = message.replace('Isaac Newton', 'Dorothy Hodgkin').replace('5', '7')
    expect(new RegExp(pattern).test(other)).toBe(true)
    expect(new RegExp(pattern).test('0 row(s) deleted.')).toBe(false)
    expect(outcomeSignature('screen', message, [])).toBe(outcomeSignature('screen', other, []))
  })
  test('short messages and one-sentence messages stay whole', () => {
    expect(leadSentence('Customer C-1042 created.')).toBe('Customer C-1042 created.')
    const long = `Saved ${'x'.repeat(90)}`
    expect(leadSentence(long)).toBe(long)
    expect(generaliseText('Saved.', [], { lead: true })).toEqual({ pattern: 'Saved.', match: 'contains' })
  })
})

describe('a button named for another action is never taken silently as the submit', () => {
  test('editing a row: “Save Changes” scores, “Insert As New Row” does not', async () => {
    const edit = await load('phpliteadmin-edit-row')
    const reading = readPrompt('Edit the row of the customers table with the given email and change its city')
    const buttons = indexTree(edit.root)
      .all.filter((e) => e.role === 'button')
      .map((b) => b.name)
    expect(buttons).toContain('Insert As New Row')
    expect(submitScore('Save Changes', reading)).toBeGreaterThan(0)
    expect(submitScore('Insert As New Row', reading)).toBe(0)
  })
})
