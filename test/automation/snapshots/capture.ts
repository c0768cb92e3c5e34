// Re-records the snapshot fixtures of the selector/condition unit tests from the fixture CRM:
//   bun test/automation/snapshots/capture.ts
// Volatile parts (window id, port, capture time) are replaced so the files only change when the
// element model or the CRM does.
import { join } from 'node:path'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { startFixtureServer } from '../../helpers/fixture-server.ts'

const fixtures = await startFixtureServer()
const driver = new BrowserDriver()
await driver.start()
try {
  const window = await driver.launch({ url: `${fixtures.url}/crm/` })
  const snap = () => driver.snapshot(window.id)
  const find = (root: UiElement, role: string, name: string): UiElement => {
    const stack = [root]
    while (stack.length) {
      const element = stack.pop()!
      if (element.role === role && element.name === name) return element
      stack.push(...element.children)
    }
    throw new Error(`no ${role} "${name}"`)
  }
  const act = async (role: string, name: string, action: 'click' | { fill: string }) => {
    const { ref } = find((await snap()).root, role, name)
    await driver.act(
      window.id,
      action === 'click' ? { kind: 'click', ref } : { kind: 'fill', ref, value: action.fill },
    )
  }
  /** Waits (on UI changes, not time) until the predicate holds for a snapshot. */
  const until = async (predicate: (text: string) => boolean): Promise<Snapshot> => {
    for (;;) {
      const snapshot = await snap()
      if (predicate(JSON.stringify(snapshot.root))) return snapshot
      if ((await driver.waitForChange(window.id, 5_000)) === 'timeout')
        throw new Error('the CRM did not change')
    }
  }
  const save = async (name: string, snapshot: Snapshot) => {
    const stable = {
      ...snapshot,
      window: {
        ...snapshot.window,
        id: 'crm-tab',
        url: snapshot.window.url?.replace(fixtures.url, 'http://fixtures'),
      },
      capturedAt: '2025-01-01T00:00:00.000Z',
    }
    stable.window.app = 'http://fixtures'
    await Bun.write(join(import.meta.dir, `${name}.json`), `${JSON.stringify(stable, null, 2)}\n`)
  }

  await save('crm-customers', await snap())
  await act('button', 'New customer', 'click')
  await save('crm-new-customer', await snap())
  await act('button', 'Save', 'click')
  await save('crm-email-required', await until((t) => t.includes('Email is required')))
  await act('textbox', 'First name', { fill: 'Ann' })
  await act('textbox', 'Email', { fill: 'ada@example.com' })
  await act('button', 'Save', 'click')
  await save('crm-duplicate-dialog', await until((t) => t.includes('Duplicate customer')))
  await act('button', 'OK', 'click')
  await act('textbox', 'Email', { fill: 'ann@example.com' })
  await act('button', 'Save', 'click')
  await save('crm-created', await until((t) => t.includes('Customer saved')))
  await act('button', 'Back to customers', 'click')
  await act('button', 'Find customer', 'click')
  await act('textbox', 'Customer ID', { fill: 'C-1040' })
  await act('button', 'Search', 'click')
  await save('crm-lookup-found', await until((t) => t.includes('Customer details')))
} finally {
  await driver.stop()
  await fixtures.stop()
}
// Same layout as the formatter gives the rest of the repository, so re-recording diffs stay small.
await Bun.spawn(['bunx', 'biome', 'format', '--write', import.meta.dir], { stdout: 'ignore' }).exited
