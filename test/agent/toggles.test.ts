import { expect, test } from 'bun:test'
import { flatten, htmlPage, pageRig } from '../helpers/page-rig.ts'

// Controls that switch something on and off are marked `checkable` in the browser's snapshot too
// (src/agent/drivers/browser/ax-roles.ts), so exploring leaves them alone as on a desktop app
// (src/builder/explore/explore-moves.ts, "switches a setting"). Real Chromium.
const rig = pageRig(() =>
  htmlPage(`<!doctype html><title>Editor</title>
    <button aria-pressed="false">Bold</button>
    <button aria-pressed="true">Italic</button>
    <button>Save</button>
    <div role="menu" aria-label="View">
      <div role="menuitemcheckbox" aria-checked="true" tabindex="-1">Word wrap</div>
      <div role="menuitemradio" aria-checked="false" tabindex="-1">Dark theme</div>
      <div role="menuitem" tabindex="-1">Zoom in</div>
    </div>`),
)

test('toggle buttons and check or radio menu items are checkable; a plain button or menu item is not', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const { root } = await rig.driver.snapshot(window.id)
  const states = Object.fromEntries(flatten(root).map((e) => [`${e.role}:${e.name}`, e.states]))
  expect(states['button:Bold']).toEqual(['checkable'])
  expect(states['button:Italic']).toEqual(['checkable', 'pressed'])
  expect(states['button:Save']).toEqual([])
  expect(states['menuitem:Word wrap']).toEqual(['checked', 'checkable'])
  expect(states['menuitem:Dark theme']).toEqual(['checkable'])
  expect(states['menuitem:Zoom in']).toEqual([])
}, 30_000)
