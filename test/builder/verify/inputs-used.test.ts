// A lookup or list whose steps never use a caller's value answers every call with the sample's
// record or list, and a create that types or clicks the sample's value as itself puts every
// record where the sample's went: the build fails saying which value and what to do (never
// silently wrong).
import { describe, expect, test } from 'bun:test'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { BuildFailure, type BuildSession } from '../../../src/builder/session.ts'
import { requireInputsUsed, unusedInputs } from '../../../src/builder/verify/inputs-used.ts'
import type { Automation } from '../../../src/protocol/automation.ts'

/** Only what the check reads of an automation: its steps' text, templates included. */
const automation = (...values: string[]) =>
  ({ steps: values.map((value, i) => ({ kind: 'fill', name: `step ${i}`, value })) }) as unknown as Automation
const session = (method: string) =>
  ({ request: { route: { method, path: '/posts' } } }) as unknown as BuildSession
const failure = (fn: () => void) => {
  try {
    fn()
  } catch (error) {
    return error as BuildFailure
  }
  return undefined
}

describe('the caller’s values are used', () => {
  const leaves = inputLeaves({ category: 'Facilities', _http: { params: { site: 'main' } } })

  test('a value named by a template (with a filter, with spaces) is used; a literal sample value is not', () => {
    expect(unusedInputs(automation('{{category}}', '{{ _http.params.site | lower }}'), leaves)).toEqual([])
    expect(
      unusedInputs(automation('Facilities', '{{_http.params.site}}'), leaves).map((l) => l.path),
    ).toEqual(['category'])
    // A longer name that starts with the key is not the key.
    expect(unusedInputs(automation('{{categoryName}}', '{{_http.params.site}}'), leaves)).toHaveLength(1)
  })

  test('a list that chose the sample’s category as a literal fails, saying which value and what to do', () => {
    const error = failure(() =>
      requireInputsUsed(
        session('GET'),
        automation('Facilities', '{{_http.params.site}}'),
        leaves,
        readPrompt('List the posts in the given category'),
      ),
    )
    expect(error).toBeInstanceOf(BuildFailure)
    expect(error!.code).toBe('VERIFY_FAILED')
    expect(error!.message).toContain('never use “category” (“Facilities”)')
    expect(error!.message).toContain('demonstrate: true')
  })

  test('a create may leave a value out (progress says so); a read may not', () => {
    const steps = automation('Kitchen', '{{_http.params.site}}')
    expect(
      failure(() => requireInputsUsed(session('POST'), steps, leaves, readPrompt('Add a category'))),
    ).toBeUndefined()
    expect(
      failure(() => requireInputsUsed(session('POST'), steps, leaves, readPrompt('Find the category'))),
    ).toBeDefined()
  })

  test('a create whose steps type or click the sample’s value as itself fails: it used it for the sample alone', () => {
    const add = readPrompt('Add a folder under the given parent')
    const typed = automation('Facilities', '{{_http.params.site}}')
    expect(failure(() => requireInputsUsed(session('POST'), typed, leaves, add))?.message).toContain(
      'every call would do it with the sample’s value',
    )
    const clicked = {
      steps: [
        { kind: 'fill', name: 'Fill', value: '{{_http.params.site}}' },
        {
          kind: 'click',
          name: 'Click “Facilities”',
          target: { fingerprints: [{ by: 'role', role: 'link', name: 'Facilities' }] },
        },
      ],
    } as unknown as Automation
    expect(failure(() => requireInputsUsed(session('POST'), clicked, leaves, add))?.code).toBe(
      'VERIFY_FAILED',
    )
    // The sign-in's own texts are not the task's steps.
    const signIn = { ...clicked, steps: [clicked.steps[0]], signIn: { steps: [clicked.steps[1]] } }
    expect(
      failure(() => requireInputsUsed(session('POST'), signIn as unknown as Automation, leaves, add)),
    ).toBeUndefined()
  })
})
