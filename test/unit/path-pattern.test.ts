import { describe, expect, test } from 'bun:test'
import { isReservedPath, matchPattern, parsePattern } from '../../src/modules/jobs/path-pattern.ts'

describe('job path patterns', () => {
  test.each([
    ['/customers', '/customers', []],
    ['/customers/', '/customers', []],
    ['/', '/', []],
    ['/customers/:id/notes', '/customers/:id/notes', ['id']],
    ['/a/:x/b/:y_2', '/a/:x/b/:y_2', ['x', 'y_2']],
    ['/v1/orders.json', '/v1/orders.json', []],
    // A space or a letter outside ASCII is the path as a URL spells it (issue 9 item 5).
    ['/a/b c', '/a/b%20c', []],
    ['/café/:id', '/caf%C3%A9/:id', ['id']],
  ])('%s is valid', (raw, pattern, params) => {
    expect(parsePattern(raw)).toEqual({ pattern, params })
  })

  test.each([
    ['customers', 'must start with /'],
    ['/a//b', 'empty segment'],
    ['/files/*', 'characters'],
    ['/a/:id(\\d+)', 'characters'],
    ['/a/:id/:id', 'twice'],
    [`/${'a'.repeat(1001)}`, 'longer than'],
  ])('%s is refused (%s)', (raw, why) => {
    expect(() => parsePattern(raw)).toThrow(why)
  })

  test.each(['/_jobs', '/_', '/_builds/x', '/swagger.json'])('%s is reserved', (p) => {
    expect(isReservedPath(p)).toBe(true)
    expect(() => parsePattern(p)).toThrow('reserved')
  })
  test.each(['/jobs', '/a/_b', '/swagger.json.bak'])('%s is not reserved', (p) =>
    expect(isReservedPath(p)).toBe(false),
  )

  test('concrete paths fill the parameters of their pattern', () => {
    expect(matchPattern('/customers/:id/notes', '/customers/C%2D1/notes')).toEqual({ id: 'C-1' })
    expect(matchPattern('/customers/:id/notes', '/customers/C-1/notes/')).toEqual({ id: 'C-1' })
    expect(matchPattern('/customers/:id/notes', '/customers/C-1')).toBeNull()
    expect(matchPattern('/customers/:id/notes', '/orders/C-1/notes')).toBeNull()
    expect(matchPattern('/customers/:id', '/customers/')).toBeNull()
  })
})
