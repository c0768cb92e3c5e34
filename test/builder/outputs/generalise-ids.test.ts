import { describe, expect, test } from 'bun:test'
import { extractPattern } from '../../../src/builder/generalise'

// Issue 8, item 2: an id read with `extract` must match the next record's id, whatever its
// letters and hex — not only digits.
function extracts(seen: string, token: string, next: string, nextToken: string) {
  const pattern = extractPattern(seen, token, [])
  const m = new RegExp(pattern).exec(next)
  expect(m?.[1]).toBe(nextToken)
}

describe('extract patterns keep letters and hex', () => {
  test('a fossil hash in a URL-like path', () => {
    extracts('/tktview/5f3a9c0d1e', '5f3a9c0d1e', '/tktview/a0b1c2d3e4f5', 'a0b1c2d3e4f5')
  })
  test('a prefixed short mixed id (HD-00A1 → HD-00B7)', () => {
    extracts('Ticket HD-00A1 created', 'HD-00A1', 'Ticket HD-00B7 created', 'HD-00B7')
  })
  test('a prefixed number keeps its prefix (INC0012)', () => {
    extracts('Incident INC0012 opened', 'INC0012', 'Incident INC0345 opened', 'INC0345')
    expect(
      new RegExp(extractPattern('Incident INC0012 opened', 'INC0012', [])).test('Incident REQ0345 opened'),
    ).toBe(false)
  })
})

describe('free text keeps its place, not its words', () => {
  test('a subject after “#1:” is whatever follows the next ticket’s number; words before a note stop at it', () => {
    const subject = new RegExp(
      extractPattern('#1: Password reset for the payroll system', 'Password reset for the payroll system', [
        '1',
      ]),
    )
    expect(subject.exec('#2: Leaking tap in the kitchen')?.[1]).toBe('Leaking tap in the kitchen')
    const noted = new RegExp(extractPattern('Subject: Lunch order (draft)', 'Lunch order', []))
    expect(noted.exec('Subject: Team offsite plans (draft)')?.[1]).toBe('Team offsite plans')
  })
})
