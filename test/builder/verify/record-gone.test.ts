// A write that takes its record away (a message moved to a folder): the replay before the submit
// cannot find the sample's record again, and that is no failure when the record is shown nowhere.
// The session here stands for the desktop only through `snapshot`, which is all the check reads.
import { describe, expect, test } from 'bun:test'
import type { BuildSession } from '../../../src/builder/session.ts'
import { recordGone } from '../../../src/builder/verify/record-gone.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { RunOutcome, StepRecord } from '../../../src/protocol/messages.ts'

const el = (role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
  ref: name,
  role,
  name,
  states: [],
  children,
})
const automation = {
  steps: [
    { kind: 'launch', name: 'Open the mail' },
    {
      kind: 'click',
      name: 'Click the message',
      target: { fingerprints: [{ by: 'role', role: 'link', name: '{{subject}}' }] },
    },
    {
      kind: 'click',
      name: 'Click “Move to…”',
      target: { fingerprints: [{ by: 'role', role: 'button', name: 'Move to…' }] },
    },
    {
      kind: 'click',
      name: 'Click the folder',
      target: { fingerprints: [{ by: 'role', role: 'link', name: '{{folder}}' }] },
    },
  ],
} as unknown as Automation
const failedAt = (name: string, code = 'ELEMENT_NOT_FOUND') =>
  ({
    status: 'failed',
    error: { code, message: 'not found' },
    steps: [
      { flowName: name, executionOrder: 2, totalSteps: 3, status: 'FAILED', startedAt: '' } as StepRecord,
    ],
  }) as unknown as RunOutcome & { steps: StepRecord[] }
const session = (method: string, ...shown: string[]) =>
  ({
    request: { route: { method, path: '/mail/move' } },
    snapshot: async () => ({
      root: el(
        'window',
        'Inbox',
        shown.map((s) => el('link', s)),
      ),
    }),
  }) as unknown as BuildSession
const input = { subject: 'Delivery schedule for week 11', folder: 'Suppliers' }

describe('a record the sample’s own run took away', () => {
  test('a write whose replay misses the record picked by the sample’s value, shown nowhere: the sample’s run stands', async () => {
    const gone = await recordGone(
      session('POST', 'Team lunch on Friday'),
      automation,
      failedAt('Click the message'),
      input,
      3,
    )
    expect(gone).toEqual({ step: 'Click the message', value: 'Delivery schedule for week 11' })
  })

  test('still shown, a lookup, another error, a fixed control or a step past the submit: the failure stands', async () => {
    const run = failedAt('Click the message')
    expect(
      await recordGone(session('POST', 'Delivery schedule for week 11'), automation, run, input, 3),
    ).toBeUndefined()
    expect(await recordGone(session('GET'), automation, run, input, 3)).toBeUndefined()
    expect(
      await recordGone(
        session('POST'),
        automation,
        failedAt('Click the message', 'AMBIGUOUS_SELECTOR'),
        input,
        3,
      ),
    ).toBeUndefined()
    expect(
      await recordGone(session('POST'), automation, failedAt('Click “Move to…”'), input, 3),
    ).toBeUndefined()
    expect(
      await recordGone(session('POST'), automation, failedAt('Click the folder'), input, 3),
    ).toBeUndefined()
  })
})
