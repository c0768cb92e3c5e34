import { describe, expect, test } from 'bun:test'
import { AppError } from '../../src/lib/errors.ts'
import { formatJobFile, inputKey, type JobFile } from '../../src/modules/jobs/job-file.ts'
import { checkJobFile } from '../../src/modules/jobs/job-file-check.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'

const file = (over: Record<string, unknown> = {}): JobFile =>
  ({
    format: 'deskhook.job',
    version: 1,
    method: 'POST',
    path: '/customers',
    prompt: 'Create a customer',
    automation: crmCreateCustomer('http://crm.lan'),
    samples: [{ input: { email: 'ada@example.com', _http: { method: 'POST', path: '/customers' } } }],
    ...over,
  }) as JobFile

/** Rebuilds every object with its keys in reverse order: same data, different insertion order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  )
}

function problemsOf(data: unknown): string[] {
  try {
    checkJobFile(data)
  } catch (err) {
    if (err instanceof AppError) return err.details?.problems as string[]
    throw err
  }
  return []
}

describe('formatJobFile', () => {
  test('the same job gives the same bytes whatever order its keys were written in', () => {
    const text = formatJobFile(file())
    expect(formatJobFile(reversed(file()) as JobFile)).toBe(text)
    expect(text.endsWith('}\n')).toBe(true)
    expect(Object.keys(JSON.parse(text))).toEqual([
      'format',
      'version',
      'method',
      'path',
      'prompt',
      'desktopPool',
      'timeoutMs',
      'automation',
      'samples',
    ])
  })

  test('keys that say what a thing is come first, the bulk last', () => {
    const doc = JSON.parse(formatJobFile(reversed(file()) as JobFile))
    expect(Object.keys(doc.automation)).toEqual(['version', 'app', 'steps', 'scenarios'])
    expect(Object.keys(doc.automation.steps[1])).toEqual(['kind', 'name', 'target'])
    expect(Object.keys(doc.automation.steps[1].target.fingerprints[0])).toEqual(['by', 'name', 'role'])
    expect(Object.keys(doc.samples[0].input)).toEqual(['email', '_http'])
  })

  test('sample identity ignores key order', () => {
    expect(inputKey({ a: 1, b: { c: 2, d: 3 } })).toBe(inputKey({ b: { d: 3, c: 2 }, a: 1 }))
    expect(inputKey({ a: 1 })).not.toBe(inputKey({ a: 2 }))
  })
})

describe('checkJobFile', () => {
  test('a valid file comes back with its method upper-cased and its path normalised', () => {
    const checked = checkJobFile(file({ method: 'post', path: '/customers/:id/' }))
    expect(checked.method).toBe('POST')
    expect(checked.path).toBe('/customers/:id')
  })

  test('problems deep in the automation are explained against the variant they meant', () => {
    const automation = crmCreateCustomer('http://crm.lan')
    const click = automation.steps[1] as { target: { fingerprints: unknown[] } }
    click.target.fingerprints[0] = { by: 'role', role: 'button' }
    ;(automation.steps[6] as { checked: unknown }).checked = 3
    ;(automation.scenarios[0] as { outcome: string }).outcome = 'meh'
    expect(problemsOf(file({ automation }))).toEqual([
      'automation.steps.1.target.fingerprints.0.name: is required',
      'automation.steps.6.checked: must be a boolean or a string, got 3',
      'automation.scenarios.0.outcome: must be one of "success", "alternate", "failure", got "meh"',
    ])
  })

  test('sample members, expect placeholders and unknown members are all reported', () => {
    const problems = problemsOf(
      file({
        samples: [{ input: 'x' }, { input: {}, status: 'great', expect: { id: { $type: 'date' } } }],
        extra: true,
      }),
    )
    expect(problems).toContain(
      'extra: is not a known member (known: format, version, method, path, prompt, samples, desktopPool, timeoutMs, secretInputs, exportedAt, automation)',
    )
    expect(problems).toContain('samples.0.input: must be an object, got a string')
    expect(problems).toContain(
      'samples.1.status: must be one of "pending", "passing", "failing", got "great"',
    )
    expect(problems).toContain(
      'samples.1.expect.id.$type: must be one of string, number, integer, boolean, object, array, null, got "date"',
    )
  })

  test('a document that is not an object is refused as a whole', () => {
    expect(problemsOf([file()])).toEqual([
      'the file must hold a JSON object with "format": "deskhook.job", got an array',
    ])
  })
})
