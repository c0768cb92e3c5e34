import { expect, test } from 'bun:test'
import { runOnScreen } from '../../../src/builder/verify/snapshot-driver.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'

// The real runner on a recorded screen: a step with `onlyIf` runs when its condition holds and is
// SKIPPED when it does not (a sign-in form a signed-in desktop never shows).
const screen: Snapshot = {
  window: { id: 'w1', title: 'Home', app: 'http://127.0.0.1:1', kind: 'tab', url: 'http://127.0.0.1:1/' },
  capturedAt: new Date().toISOString(),
  root: {
    ref: 'r0',
    role: 'window',
    name: 'Home',
    states: [],
    children: [{ ref: 'r1', role: 'heading', name: 'Welcome back, Ada', states: [], children: [] }],
  },
}
const heading = {
  fingerprints: [{ by: 'role' as const, role: 'heading' as const, name: 'Welcome back, Ada' }],
}

test('a step whose onlyIf does not hold is skipped; one whose onlyIf holds runs', async () => {
  const automation: Automation = {
    version: 1,
    app: { url: 'http://127.0.0.1:1/' },
    steps: [
      {
        kind: 'click',
        name: 'Sign in',
        target: { fingerprints: [{ by: 'role', role: 'button', name: 'Sign in' }] },
        onlyIf: { kind: 'text', text: 'Password' },
      },
      {
        kind: 'read',
        name: 'Read the greeting',
        target: heading,
        into: 'greeting',
        onlyIf: { kind: 'text', text: 'Welcome' },
      },
    ],
    scenarios: [],
  }
  const run = await runOnScreen(automation, 0, screen, {})
  expect(run.status).toBe('succeeded')
  expect(run.steps.map((s) => s.status)).toEqual(['SKIPPED', 'SUCCESS'])
  expect(run.result).toEqual({ greeting: 'Welcome back, Ada' })
})
