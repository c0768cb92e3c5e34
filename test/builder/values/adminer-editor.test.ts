import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { indexTree } from '../../../src/automation/index.ts'
import { nextButton } from '../../../src/builder/explore/pages.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { assignFields } from '../../../src/builder/map/field-scores.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { readControls } from '../../../src/builder/screen.ts'
import { secondSend } from '../../../src/builder/submit/follow-through.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'
import { mapOn, recorded } from './helpers.ts'

// Recorded on Debian's Adminer Editor (test/builder/outputs/snapshots/capture.ts adminer-editor):
// a product's new-item form (rows headed "name", "sku", "price", "category_id", sent with "Save"
// or "Save and insert next"), the products list with its search form (a column select, an operator
// select and an unlabelled search box, sent with "Select"), and that list after an edit was saved.

describe('Adminer Editor’s new-item form', () => {
  test('every value finds its row, “categoryId” the number box headed “category_id”', async () => {
    const { steps, transcript } = await mapOn('adminer-editor-new-item', {
      name: 'Hedge shears',
      sku: 'GT-110',
      price: '31.5',
      categoryId: 1,
    })
    expect(transcript.questions).toEqual([])
    expect(transcript.unexpected).toEqual([])
    expect(steps.map((s) => [s.leaf?.path, s.control.label])).toEqual([
      ['name', 'name'],
      ['sku', 'sku'],
      ['price', 'price'],
      ['categoryId', 'category_id'],
    ])
  })

  test('“Save and insert next” is a way to send, not a wizard’s Next', async () => {
    const form = await recorded('adminer-editor-new-item')
    const buttons = indexTree(form.root)
      .all.filter((e) => e.role === 'button')
      .map((b) => b.name)
    expect(buttons).toContain('Save and insert next')
    expect(nextButton(form.root)).toBeUndefined()
  })
})

describe('a lookup’s one value goes where a person types it', () => {
  test('the SKU of a lookup goes into the unlabelled search box of the products list', async () => {
    const list = await recorded('adminer-editor-select')
    const leaves = inputLeaves({ sku: 'GT-120' })
    leaves[0]!.query = true
    const { assigned } = assignFields(leaves, readControls(list.root))
    expect(assigned).toHaveLength(1)
    expect(assigned[0]!.control.element.inputType).toBe('search')
  })
  test('without the lookup mark (a record being created), the search box takes nothing', async () => {
    const list = await recorded('adminer-editor-select')
    const { assigned } = assignFields(inputLeaves({ sku: 'GT-120' }), readControls(list.root))
    expect(assigned).toEqual([])
  })
})

describe('after an edit is saved', () => {
  test('the list’s disabled “Edit” (for checked rows) is no second send', async () => {
    const form = await recorded('adminer-editor-edit')
    const saved = (await Bun.file(
      join(import.meta.dir, '../outputs/snapshots/adminer-editor-saved.json'),
    ).json()) as Snapshot
    const edit = indexTree(saved.root).all.find((e) => e.role === 'button' && e.name === 'Edit')
    expect(edit?.states).toContain('disabled')
    const ending = classifyEnding(form.root, saved.root, [], ['KT-200'])
    if (!ending) throw new Error('the saved list is no ending')
    expect(ending.appeared).toContain(edit!)
    const reading = readPrompt('Edit the product with the given SKU and change its price')
    const fields = readControls(form.root).map((c) => c.element)
    expect(secondSend({ ...ending, kind: 'screen' }, 'Save', reading, saved.root, fields)).toBeUndefined()
    // The same button enabled would be taken for the send of a preview: the check is the state.
    const enabled = { ...edit!, states: [] }
    const swapped = {
      ...ending,
      kind: 'screen' as const,
      appeared: ending.appeared.map((e) => (e === edit ? enabled : e)),
    }
    expect(secondSend(swapped, 'Save', reading, saved.root, fields)?.name).toBe('Edit')
  })
})
