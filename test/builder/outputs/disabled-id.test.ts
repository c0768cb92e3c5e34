// After "Save", a single-page admin shows the new record's own form: a heading that names it
// ("Customer Ada Lovelace") and a greyed-out (disabled) "Id" box holding the id the app gave it.
// A disabled field shows a value nobody types, as a read-only one does: customerId is read there.
import { expect, test } from 'bun:test'
import { findMatches, indexTree } from '../../../src/automation/index.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { generatedRead } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const box = (name: string, value: string, states: UiElement['states'] = []) =>
  el('textbox', name, [], { value, states })

test('a disabled “Id” box on the new record’s form is its id', () => {
  // The phone number holds the new id's digit: the id is still the record's own.
  const inputs = ['Ada Lovelace', 'ada@example.com', '+44 20 7946 0017', 'London']
  const before = el('window', 'Back office', [el('heading', 'Create Customer'), box('Name', '')])
  const after = el('window', 'Back office', [
    el('heading', 'Customer Ada Lovelace'),
    el('alert', 'Element created'),
    el('form', '', [
      el('text', 'Id'),
      box('Id', '7', ['disabled']),
      box('Name', 'Ada Lovelace'),
      box('City', 'London'),
      el('button', 'Save'),
    ]),
  ])
  const ending = classifyEnding(before, after, [], inputs)
  if (!ending) throw new Error('no ending')
  const ctx = {
    ending,
    after,
    inputs,
    reading: readPrompt('Add a customer with the given name, email, phone and city, and return its id'),
    submitLabel: 'Save',
  }
  const step = generatedRead(ctx, 'customerId')
  expect(step).toBeDefined()
  const found = step!.target!.fingerprints.flatMap((f) => findMatches(indexTree(after), f))[0]
  expect(found?.value).toBe('7')
})
