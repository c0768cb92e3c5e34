import { describe, expect, test } from 'bun:test'
import {
  renderTemplate,
  resolveTemplate,
  TemplateError,
  templatePaths,
  toBoolean,
} from '../../src/automation/templates.ts'

const input = {
  customer: { email: 'ann@example.com', vip: true, age: 41, tags: ['a', 'b'], phone: null },
  _http: { method: 'POST', params: { id: 'C-1042' } },
}

function templateError(run: () => unknown): TemplateError {
  try {
    run()
  } catch (error) {
    if (error instanceof TemplateError) return error
    throw error
  }
  throw new Error('expected a TemplateError')
}

describe('renderTemplate', () => {
  test('replaces dotted paths, tolerating spaces inside the braces', () => {
    expect(renderTemplate('{{customer.email}}', input)).toBe('ann@example.com')
    expect(renderTemplate('Customer {{ _http.params.id }} ({{customer.age}})', input)).toBe(
      'Customer C-1042 (41)',
    )
    expect(renderTemplate('no placeholders', input)).toBe('no placeholders')
    expect(renderTemplate('{{customer.tags.1}}', input)).toBe('b')
  })

  test('the spaces filter shows underscores as spaces (a wiki page title)', () => {
    expect(renderTemplate('{{page | spaces}}', { page: 'Oncall_rota' })).toBe('Oncall rota')
    expect(renderTemplate('{{page|spaces}}', { page: 'Plain' })).toBe('Plain')
  })

  test('a missing or null value is INPUT_MISSING naming the path, unless a fallback is given', () => {
    const missing = templateError(() => renderTemplate('{{customer.fax}}', input))
    expect(missing.code).toBe('INPUT_MISSING')
    expect(missing.path).toBe('customer.fax')
    expect(templateError(() => renderTemplate('{{customer.phone}}', input)).code).toBe('INPUT_MISSING')
    expect(renderTemplate('{{customer.phone ?? ""}}', input)).toBe('')
    expect(renderTemplate('{{customer.fax ?? "n/a"}}', input)).toBe('n/a')
  })

  test('malformed placeholders are TEMPLATE_INVALID', () => {
    expect(templateError(() => renderTemplate('{{customer email}}', input)).code).toBe('TEMPLATE_INVALID')
    expect(templateError(() => renderTemplate('{{x ?? unquoted}}', input)).code).toBe('TEMPLATE_INVALID')
  })
})

describe('resolveTemplate', () => {
  test('a lone placeholder keeps the JSON type; mixed text renders as text', () => {
    expect(resolveTemplate('{{customer.vip}}', input)).toBe(true)
    expect(resolveTemplate('{{customer.tags}}', input)).toEqual(['a', 'b'])
    expect(resolveTemplate('{{customer.age}} years', input)).toBe('41 years')
    expect(resolveTemplate('{{customer.tags}}!', input)).toBe('["a","b"]!')
  })
})

test('templatePaths lists the input paths a template reads', () => {
  expect(templatePaths('{{a.b}} and {{ c ?? "x" }}')).toEqual(['a.b', 'c'])
})

test('toBoolean reads checkbox states and refuses anything else', () => {
  expect([true, 'yes', 'ON', 1, 'true'].map((v) => toBoolean(v, 't'))).toEqual([true, true, true, true, true])
  expect([false, 'no', 'off', 0, ''].map((v) => toBoolean(v, 't'))).toEqual([
    false,
    false,
    false,
    false,
    false,
  ])
  expect(templateError(() => toBoolean('maybe', '{{x}}')).code).toBe('TEMPLATE_INVALID')
})
