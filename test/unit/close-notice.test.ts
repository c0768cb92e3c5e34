// What a build's progress and a run's launch step say when the app's earlier instance had to be
// ended (issue 24: apps were killed silently and left lock files the next start stopped on).
import { describe, expect, test } from 'bun:test'
import { closeNotice } from '../../src/agent/drivers/native/close-notice.ts'

describe('the notice of a launch that ended an app by force', () => {
  test('an app closed as a person closes it says nothing', () => {
    expect(closeNotice({ ended: 0, staleLocks: [] })).toBeUndefined()
    expect(closeNotice({})).toBeUndefined()
  })

  test('an app ended by force is said, and each lock file it left is named, not removed', () => {
    expect(closeNotice({ ended: 1, staleLocks: [] })).toBe(
      'The app’s earlier instance did not close when asked and was ended.',
    )
    expect(closeNotice({ ended: 1, staleLocks: ['/home/ann/books.gnucash.LCK'] })).toBe(
      'The app’s earlier instance did not close when asked and was ended; it left a lock file ' +
        '(/home/ann/books.gnucash.LCK), which deskhook does not remove: the app may ask about it when it starts.',
    )
  })
})
