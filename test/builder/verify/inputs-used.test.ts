// A lookup or list whose steps never use a caller's value answers every call with the sample's
// record or list: the build fails saying which value and what to do (never silently wrong).
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
    const steps = automation('Facilities', '{{_http.params.site}}')
    expect(
      failure(() => requireInputsUsed(session('POST'), steps, leaves, readPrompt('Add a category'))),
    ).toBeUndefined()
    expect(
      failure(() => requireInputsUsed(session('POST'), steps, leaves, readPrompt('Find the category'))),
    ).toBeDefined()
  })
})
