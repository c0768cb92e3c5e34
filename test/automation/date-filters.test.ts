// Template filters that split a date for composite controls (day box, month drop-down, text box).
import { describe, expect, test } from 'bun:test'
import {
  renderTemplate,
  resolveTemplate,
  TemplateError,
  templatePaths,
} from '../../src/automation/templates.ts'

const scope = {
  dob: '2024-03-05',
  stamp: '1999-12-31T23:59:00Z',
  bad: '05/03/2024',
  person: { born: '2001-11-09' },
}

describe('date filters', () => {
  test('each part of an ISO date, padded or not', () => {
    const r = (t: string) => renderTemplate(t, scope)
    expect(r('{{dob | day}}')).toBe('5')
    expect(r('{{dob | day2}}')).toBe('05')
    expect(r('{{dob | month}}')).toBe('3')
    expect(r('{{dob | month2}}')).toBe('03')
    expect(r('{{dob | monthName}}')).toBe('March')
    expect(r('{{dob | monthShort}}')).toBe('Mar')
    expect(r('{{dob | year}}')).toBe('2024')
    expect(r('{{person.born|day2}}/{{person.born|month2}}')).toBe('09/11')
  })

  test('date:PATTERN with YYYY, MM, M, DD, D, MMM and MMMM', () => {
    const r = (t: string) => renderTemplate(t, scope)
    expect(r('{{dob | date:DD/MM/YYYY}}')).toBe('05/03/2024')
    expect(r('{{dob | date:D/M/YYYY}}')).toBe('5/3/2024')
    expect(r('{{dob | date:D MMMM YYYY}}')).toBe('5 March 2024')
    expect(r('{{dob | date:MMM D, YYYY}}')).toBe('Mar 5, 2024')
    expect(r('{{dob | date:YYYY-MM-DD}}')).toBe('2024-03-05')
    // A timestamp's date part: what a date field wants from an API's datetime.
    expect(r('{{stamp | date:DD.MM.YYYY}}')).toBe('31.12.1999')
  })

  test('a value that is not an ISO date is a TEMPLATE_INVALID naming the input and the format', () => {
    for (const template of ['{{bad | day}}', '{{bad | date:DD/MM/YYYY}}']) {
      let error: unknown
      try {
        renderTemplate(template, scope)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(TemplateError)
      expect((error as TemplateError).code).toBe('TEMPLATE_INVALID')
      expect((error as TemplateError).message).toContain('"bad"')
      expect((error as TemplateError).message).toContain('YYYY-MM-DD')
    }
    // Impossible calendar dates are not dates either.
    expect(() => renderTemplate('{{d | day}}', { d: '2023-02-30' })).toThrow(/not a date/)
  })

  test('unknown filters and a date filter without a pattern are invalid templates', () => {
    expect(() => renderTemplate('{{dob | weekday}}', scope)).toThrow(/unknown filter "weekday"/)
    expect(() => renderTemplate('{{dob | date:}}', scope)).toThrow(/needs a pattern/)
  })

  test('fallbacks keep working, unfiltered, and a missing value without one is INPUT_MISSING', () => {
    expect(renderTemplate('{{missing | day2 ?? "01"}}', scope)).toBe('01')
    expect(resolveTemplate('{{dob | year ?? ""}}', scope)).toBe('2024')
    expect(renderTemplate('{{name ?? "x|y"}}', {})).toBe('x|y')
    expect(() => renderTemplate('{{missing | day}}', scope)).toThrow(TemplateError)
    try {
      renderTemplate('{{missing | day}}', scope)
    } catch (e) {
      expect((e as TemplateError).code).toBe('INPUT_MISSING')
    }
    expect(templatePaths('{{dob | day2}}-{{x ?? 1}}')).toEqual(['dob', 'x'])
  })
})
