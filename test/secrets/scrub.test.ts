import { describe, expect, test } from 'bun:test'
import { renderTemplate } from '../../src/automation/templates.ts'
import { MASK, scrubSecrets, templateSecrets } from '../../src/modules/secrets/scrub.ts'

describe('scrubSecrets', () => {
  test('masks every occurrence, deeply, in values and keys', () => {
    const report = {
      result: { greeting: 'Hello ada, key s3cret-ada!', list: ['s3cret-ada', 42, null, true] },
      error: { code: 'ELEMENT_NOT_FOUND', message: 'No button "ada / s3cret-ada"' },
      's3cret-ada': 'as a key',
    }
    expect(scrubSecrets(report, ['ada', 's3cret-ada']) as unknown).toEqual({
      result: { greeting: `Hello ${MASK}, key ${MASK}!`, list: [MASK, 42, null, true] },
      error: { code: 'ELEMENT_NOT_FOUND', message: `No button "${MASK} / ${MASK}"` },
      [MASK]: 'as a key',
    })
  })

  test('the longer value wins where one contains the other; empty values are ignored', () => {
    expect(scrubSecrets('pw=hunter2hunter', ['hunter', 'hunter2hunter', ''])).toBe(`pw=${MASK}`)
  })

  test('nothing to mask: the very same object comes back', () => {
    const value = { a: ['x', { b: 'y' }] }
    expect(scrubSecrets(value, ['zzz'])).toBe(value)
    expect(scrubSecrets(value, [])).toBe(value)
  })
})

describe('templateSecrets', () => {
  test('a value copied into an automation becomes its template, which renders back to it', () => {
    const secrets = { username: 'opal-7', password: 'Zq8!v' }
    const step = { kind: 'wait', until: { kind: 'text', text: 'Signed in as opal-7' } }
    const templated = templateSecrets(step, secrets)
    expect(templated.until.text).toBe('Signed in as {{$secrets.username}}')
    expect(renderTemplate(templated.until.text, { $secrets: secrets })).toBe('Signed in as opal-7')
    expect(JSON.stringify(templateSecrets({ v: 'Zq8!v' }, secrets))).not.toContain('Zq8!v')
  })
})
