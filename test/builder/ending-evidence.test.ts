// An ending is evidence only when its condition did not already hold before the submit (issue
// 24: a spreadsheet's save dropped the "*" of its title, the title then "appeared", and every
// live call passed while writing nothing; now a save's title is matched exactly, after a check that
// the mark was there). The screens are written out; no desktop needed.
import { describe, expect, test } from 'bun:test'
import { evaluateCondition } from '../../src/automation/index.ts'
import { compose, decompose, type Plan, submitIndexOf } from '../../src/builder/compose/compose.ts'
import { guardStep } from '../../src/builder/compose/finish-build.ts'
import { classifyEnding } from '../../src/builder/observe/classify.ts'
import { upTo } from '../../src/builder/verify/verify.ts'
import type { Step } from '../../src/protocol/automation.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = []) =>
  ({ ref: `e${++refs}`, role, name, states: [], children }) as UiElement

const sheet = (title: string, extra: UiElement[] = []) =>
  el('window', title, [el('toolbar', '', [el('button', 'Save'), el('textbox', 'B4')]), ...extra])

describe('what a submit’s ending must show', () => {
  test('a title that lost its “modified” mark is a save: the saved title exactly, and the mark just before it', () => {
    const marked = sheet('*stock.gnumeric - Gnumeric')
    const saved = sheet('stock.gnumeric - Gnumeric')
    const ending = classifyEnding(marked, saved, [], ['B3', '42'])
    expect(ending?.name).toBe('Saved')
    expect(evaluateCondition(saved, ending!.condition, {}).holds).toBe(true)
    // The marked title contains the saved one: the condition is exact, so it does not hold there.
    expect(evaluateCondition(marked, ending!.condition, {}).holds).toBe(false)
    // A run that changed nothing has no mark to lose: its check before the save fails.
    expect(evaluateCondition(marked, ending!.precondition!.that, {}).holds).toBe(true)
    expect(evaluateCondition(saved, ending!.precondition!.that, {}).holds).toBe(false)
    // Other titles that only lose words are no evidence.
    expect(
      classifyEnding(sheet('Editing stock - Gnumeric'), sheet('stock - Gnumeric'), [], []),
    ).toBeUndefined()
  })

  test('a new title, or a message that was not there, is', () => {
    const retitled = classifyEnding(sheet('New invoice'), sheet('Invoice 1042'), [], ['42'])
    expect(retitled?.message).toBe('Invoice 1042')
    const saved = classifyEnding(
      sheet('Stock'),
      sheet('Stock', [el('status', 'Saved stock.gnumeric')]),
      [],
      [],
    )
    expect(saved?.message).toBe('Saved stock.gnumeric')
  })
})

describe('a record added from another window', () => {
  test('the row showing what the caller sent, that appeared in the main window, is the ending', () => {
    const tree = (rows: string[]) =>
      el('window', 'books.gnucash - Accounts', [
        el(
          'table',
          'Accounts',
          rows.map((name) => el('row', `${name} $0.00`, [el('cell', name), el('cell', '$0.00')])),
        ),
      ])
    const ending = classifyEnding(
      tree(['Expenses', 'Rent']),
      tree(['Expenses', 'Rent', 'Software Subscriptions']),
      [],
      ['Software Subscriptions', 'Expenses'],
    )
    expect(ending?.message).toBe('Software Subscriptions $0.00')
    // A row of the same name already there is nothing new.
    expect(classifyEnding(tree(['Rent']), tree(['Rent']), [], ['Rent'])).toBeUndefined()
  })
})

describe('the save’s check stays right before the submit', () => {
  test('fields added to the prefix later (an extend build) go before it, and a replay up to the submit leaves it out', () => {
    const click = (name: string): Step => ({
      kind: 'click',
      name,
      target: { fingerprints: [{ by: 'role', role: 'button', name }], description: name },
    })
    const guard = guardStep({
      name: 'Check the document has unsaved changes',
      that: { kind: 'text', text: '*notes.txt' },
      message: 'no unsaved changes',
    })
    const plan: Plan = {
      app: { executable: 'mousepad' },
      prefix: [{ kind: 'launch', name: 'Open' }, click('Replace All')],
      guard,
      submit: click('Save'),
      wait: { name: 'Wait for the outcome' },
      success: [{ kind: 'text', text: 'notes.txt' }],
      branches: [],
      tail: [],
      scenarios: [],
      mainScenario: 'Saved',
    }
    const again = decompose(compose(plan))!
    expect(again.guard).toEqual(guard)
    again.prefix.push(click('Match case'))
    const steps = compose(again).steps.map((s) => s.name)
    expect(steps.slice(0, 5)).toEqual([
      'Open',
      'Replace All',
      'Match case',
      'Check the document has unsaved changes',
      'Save',
    ])
    const automation = compose(again)
    const submit = automation.steps.findIndex((s) => s.name === 'Save')
    // Where verifying looks for the submit (verify-build.ts) is where compose put it.
    expect(submitIndexOf(again)).toBe(submit)
    expect(upTo(automation, submit).steps.map((s) => s.name)).toEqual(['Open', 'Replace All', 'Match case'])
  })
})
