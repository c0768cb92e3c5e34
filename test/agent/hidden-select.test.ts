// A native drop-down hidden behind a page's own styled one (as select pickers draw them), in real
// Chromium: it has no box to click, yet a select sets it, and the styled one follows its change
// event, as it does when a person picks from it. A hidden element of any other kind stays refused.
import { describe, expect, test } from 'bun:test'
import { elementsWhen, flatten, htmlPage, pageRig } from '../helpers/page-rig.ts'

const PAGE = `<!doctype html><title>New ticket</title>
<label for="queue">Queue</label>
<select id="queue" style="position:absolute;width:0;height:0;opacity:0;overflow:hidden">
  <option>General</option><option>IT Support</option><option>Facilities</option></select>
<button type="button" id="picker">General</button>
<label for="hidden-box">Hidden</label><input id="hidden-box" style="width:0;height:0;border:0;padding:0">
<script>
  document.getElementById('queue').addEventListener('change', (e) => {
    document.getElementById('picker').textContent = e.target.value
  })
</script>`

const rig = pageRig(() => htmlPage(PAGE))

describe('a native drop-down hidden behind a styled one', () => {
  test('takes its value without a click; the styled one shows it; a hidden text box is still refused', async () => {
    const window = await rig.driver.launch({ url: `${rig.server.url}` })
    const all = await elementsWhen(rig.driver, window.id, (all) => all.some((e) => e.role === 'combobox'))
    const queue = all.find((e) => e.role === 'combobox' && e.name === 'Queue')!
    const result = await rig.driver.act(window.id, { kind: 'select', ref: queue.ref, values: ['IT Support'] })
    expect(result.value).toBe('IT Support')
    const after = flatten((await rig.driver.snapshot(window.id)).root)
    expect(after.some((e) => e.role === 'button' && e.name === 'IT Support')).toBe(true)
    const box = after.find((e) => e.role === 'textbox' && e.name === 'Hidden')!
    await expect(rig.driver.act(window.id, { kind: 'fill', ref: box.ref, value: 'x' })).rejects.toThrow(
      /no visible box/,
    )
  }, 30_000)
})
