// A generated id shown only in the new record's own address is read from the address when the
// words before it mean the key; a number in an address that did not change, or after other
// words, is no evidence.
import { describe, expect, test } from 'bun:test'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { OutputContext } from '../../../src/builder/outputs/outputs.ts'
import { urlRead } from '../../../src/builder/outputs/url-output.ts'

const ctx = (beforeUrl: string, afterUrl: string): OutputContext => ({
  ending: {
    kind: 'screen',
    message: 'Saved',
    appeared: [],
    condition: { kind: 'appears', target: { fingerprints: [], description: '' } },
    signature: 's',
  },
  after: { ref: 'r', role: 'generic', name: '', states: [], children: [] },
  beforeUrl,
  afterUrl,
  inputs: ['MUG-001', '12'],
  reading: readPrompt('Add an item and return its id'),
  submitLabel: 'Save',
})

describe('an id read from the new record’s address', () => {
  test('a new path segment after the key’s words; the extract finds the next record’s id', () => {
    const found = urlRead(
      ctx('http://h/admin/inventory/item/add/', 'http://h/admin/inventory/item/17/change/'),
      'itemId',
    )
    expect(found?.token).toBe('17')
    expect(found?.step).toMatchObject({ source: 'url', into: 'itemId' })
    const extract = new RegExp(found!.step.extract!)
    expect(extract.exec('http://h/admin/inventory/item/204/change/')?.[1]).toBe('204')
  })

  test('a new query parameter named like the key', () => {
    const found = urlRead(
      ctx('http://h/wp-admin/post-new.php', 'http://h/wp-admin/post.php?post=123&action=edit'),
      'postId',
    )
    expect(found?.token).toBe('123')
    expect(new RegExp(found!.step.extract!).exec('http://h/wp-admin/post.php?post=9&action=edit')?.[1]).toBe(
      '9',
    )
  })

  test('no evidence: other words before the number, an unchanged address, an input value, a key that is no id', () => {
    expect(urlRead(ctx('http://h/a', 'http://h/watchers/3'), 'itemId')).toBeUndefined()
    expect(urlRead(ctx('http://h/item/17', 'http://h/item/17'), 'itemId')).toBeUndefined()
    expect(urlRead(ctx('http://h/item/add', 'http://h/item/12'), 'itemId')).toBeUndefined()
    expect(urlRead(ctx('http://h/item/add', 'http://h/item/17'), 'itemName')).toBeUndefined()
  })
})
