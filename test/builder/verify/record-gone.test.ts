// A write that takes its record away (a message moved to a folder): the replay before the submit
// cannot find the sample's record again, and that is no failure when the record is shown nowhere.
// The session here stands for the desktop only through `snapshot`, which is all the check reads.
import { describe, expect, test } from 'bun:test'
import type { BuildSession } from '../../../src/builder/session.ts'
import { recordGone } from '../../../src/builder/verify/record-gone.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import type { RunOutcome, StepRecord } from '../../../src/protocol/messages.ts'

const el = (role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
  ref: name,
  role,
  name,
  states: [],
  children,
})
const click = (name: string, fingerprint: Record<string, unknown>) => ({
  kind: 'click',
  name,
  target: { fingerprints: [fingerprint] },
})
const launch = { kind: 'launch', name: 'Open the mail' }
const pickMessage = click('Click the message', { by: 'role', role: 'link', name: '{{subject}}' })
const moveTo = click('Click “Move to…”', { by: 'role', role: 'button', name: 'Move to…' })
const pickFolder = click('Click the folder', { by: 'role', role: 'link', name: '{{folder}}', within: 'menu' })
const automation = { steps: [launch, pickMessage, moveTo, pickFolder] } as unknown as Automation

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
/** The screen the sample's own move ended on: the message is no longer listed. */
const after = { root: el('window', 'Inbox', [el('text', 'Message(s) moved successfully.')]) } as Snapshot

describe('a record the sample’s own run took away', () => {
  test('a write whose replay misses the record picked by the sample’s value, shown nowhere: the sample’s run stands', async () => {
    const gone = await recordGone(
      session('POST', 'Team lunch'),
      automation,
      failedAt('Click the message'),
      input,
      3,
      after,
    )
    expect(gone).toEqual({ step: 'Click the message', value: 'Delivery schedule for week 11' })
  })

  test('still shown, a lookup, another error, a fixed control or a step past the submit: the failure stands', async () => {
    const run = failedAt('Click the message')
    const shown = session('POST', 'Delivery schedule for week 11')
    expect(await recordGone(shown, automation, run, input, 3, after)).toBeUndefined()
    expect(await recordGone(session('GET'), automation, run, input, 3, after)).toBeUndefined()
    const ambiguous = failedAt('Click the message', 'AMBIGUOUS_SELECTOR')
    expect(await recordGone(session('POST'), automation, ambiguous, input, 3, after)).toBeUndefined()
    expect(
      await recordGone(session('POST'), automation, failedAt('Click “Move to…”'), input, 3, after),
    ).toBeUndefined()
    expect(
      await recordGone(session('POST'), automation, failedAt('Click the folder'), input, 3, after),
    ).toBeUndefined()
  })

  test('shown where the sample’s own send ended, or picked after the record was opened: the failure stands', async () => {
    const run = failedAt('Click the message')
    const stillThere = {
      root: el('window', 'Inbox', [el('link', 'Delivery schedule for week 11')]),
    } as Snapshot
    expect(await recordGone(session('POST'), automation, run, input, 3, stillThere)).toBeUndefined()
    // The record opened first by its own id: a later pick by the subject is a choice in it.
    const openFirst = click('Open it', { by: 'automationId', ids: ['msg-{{uid}}'] })
    const opened = { steps: [launch, openFirst, pickMessage, moveTo, pickFolder] } as unknown as Automation
    expect(await recordGone(session('POST'), opened, run, { ...input, uid: '7' }, 4, after)).toBeUndefined()
  })
})
