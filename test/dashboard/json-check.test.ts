import { describe, expect, test } from 'bun:test'
import { checkJson, checkJsonObject } from '../../src/dashboard/ui/json-check.ts'
import { diffVersions, isEmptyDiff } from '../../src/dashboard/ui/version-diff.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'

describe('checkJson', () => {
  test.each([
    '{}',
    '[]',
    '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {"c": {}}}',
    ' \n 12 ',
    '"text"',
  ])('accepts what JSON.parse accepts: %s', (text) => {
    expect(checkJson(text)).toEqual({ ok: true, value: JSON.parse(text) })
  })

  test.each([
    ['{"a": 1,}', 1, 9, 'A trailing comma before } is not allowed in JSON'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'Expected , or } after the value (a missing comma?)'],
    ["{'a': 1}", 1, 2, 'Property names use double quotes'],
    ['{"a": \'x\'}', 1, 7, 'JSON strings use double quotes'],
    ['{"a": yes}', 1, 7, 'Unexpected word yes: text values need double quotes ("yes")'],
    ['{"a": "open', 1, 7, 'This string is not closed: a " is missing'],
    ['{"a": 01}', 1, 7, 'This is not a number JSON accepts'],
    ['{"a": 1', 1, 8, 'The text ends too early: a } is missing'],
    ['[1, 2,]', 1, 7, 'A trailing comma before ] is not allowed in JSON'],
    ['{"a": 1} x', 1, 10, 'Unexpected text after the end of the JSON value'],
    ['{"a" 1}', 1, 6, 'Expected : after the property name'],
    ['{"a": "x\\q"}', 1, 9, '\\q is not an escape JSON knows'],
    ['', 1, 1, 'The text ends too early: a value is missing'],
  ])('%j fails at line %d, column %d', (text, line, column, message) => {
    const r = checkJson(text)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect({ line: r.line, column: r.column }).toEqual({ line, column })
    expect(r.message).toContain(message)
    // Whatever this check refuses, JSON.parse refuses too.
    expect(() => JSON.parse(text)).toThrow()
  })

  test('deep nesting is refused with a message, not a stack overflow', () => {
    const r = checkJson(`${'['.repeat(5000)}${']'.repeat(5000)}`)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.message).toContain('nested more than')
  })

  test('checkJsonObject: an object, or empty when optional', () => {
    expect(checkJsonObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(checkJsonObject('  ', { optional: true })).toEqual({ ok: true, value: undefined })
    expect(checkJsonObject('')).toEqual({ ok: false, message: 'Enter a JSON object, e.g. {}' })
    expect(checkJsonObject('[1]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('JSON object'),
    })
    expect(checkJsonObject('{\n"a":}')).toEqual({
      ok: false,
      message: 'Line 2, column 5: Unexpected }: a value is missing (a trailing comma?)',
    })
  })
})

describe('diffVersions', () => {
  test('names the steps added, removed and changed, and scenarios that came or went', () => {
    const before = crmCreateCustomer('http://x')
    const after = structuredClone(before)
    after.steps = after.steps.filter((s) => s.name !== 'Fill "Last name"')
    after.steps.splice(1, 0, { kind: 'keys', name: 'Close the banner', keys: 'Escape' })
    const save = after.steps.find((s) => s.name === 'Click "Save"')!
    save.timeoutMs = 5000
    after.scenarios = [{ name: 'not allowed', outcome: 'failure', steps: [] }]
    const d = diffVersions(before, after)
    expect(d.added).toEqual(['Close the banner'])
    expect(d.removed).toContain('Fill "Last name"')
    expect(d.changed).toEqual(['Click "Save"'])
    expect(d.scenariosAdded).toEqual(['not allowed'])
    expect(d.scenariosRemoved).toEqual(['duplicate customer'])
    // The removed scenario's steps are named with it.
    expect(d.removed).toContain('duplicate customer: Click "OK"')
    expect(d.appChanged).toBe(false)
    expect(isEmptyDiff(diffVersions(before, structuredClone(before)))).toBe(true)
  })

  test('two steps with one name are two entries', () => {
    const before = crmCreateCustomer('http://x')
    const after = structuredClone(before)
    after.steps.push({
      kind: 'click',
      name: 'Click "Save"',
      target: { fingerprints: [{ by: 'text', text: 'Save' }] },
    })
    expect(diffVersions(before, after).added).toEqual(['Click "Save" (#2)'])
  })
})
