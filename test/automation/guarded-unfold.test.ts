// A step that unfolds a section only while its field is not shown ("Unfold the Tags section",
// onlyIf the field disappears), on an editor that draws its side panel a moment after the page
// loads, with the section already open. Judged on the blank page, the field is "not shown" and
// the toggle would be pressed shut; the runner judges once the toggle itself shows. Real Chromium.
import { expect, test } from 'bun:test'
import type { Automation } from '../../src/protocol/automation.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../helpers/page-rig.ts'

const PAGE = (open: boolean) => `<!doctype html><html><head><title>New post</title></head><body>
<main id="app"><p>Loading the editor…</p></main>
<script>
  // The panel is drawn once the editor has loaded, as block editors do.
  setTimeout(() => {
    document.getElementById('app').innerHTML =
      '<h2><button id="toggle" aria-expanded="${open}">Tags</button></h2><div id="body"' + (${open} ? '' : ' hidden') + '>' +
      '<label for="tags">Add new tag</label> <input id="tags"></div>'
    document.getElementById('toggle').addEventListener('click', (e) => {
      const body = document.getElementById('body')
      body.hidden = !body.hidden
      e.target.setAttribute('aria-expanded', String(!body.hidden))
    })
  }, 400)
</script></body></html>`

const rig = pageRig(async (req) => htmlPage(PAGE(new URL(req.url).pathname === '/open')))

const field = {
  fingerprints: [{ by: 'role' as const, role: 'textbox' as const, name: 'Add new tag' }],
  description: 'the tag box',
}
const automation = (url: string): Automation => ({
  version: 1,
  app: { url },
  steps: [
    {
      kind: 'click',
      name: 'Unfold the “Tags” section',
      target: {
        fingerprints: [{ by: 'role', role: 'button', name: 'Tags' }],
        description: 'the Tags button',
      },
      onlyIf: { kind: 'disappears', target: field },
    },
    { kind: 'fill', name: 'Fill the tags', target: field, value: '{{tags}}' },
    { kind: 'read', name: 'Read the tags', target: field, into: 'tags' },
  ],
  scenarios: [],
})

for (const open of [true, false])
  test(`the section ${open ? 'open' : 'folded'} when the editor draws it: the tag box is filled`, async () => {
    const url = `${rig.server.url.href}${open ? 'open' : 'folded'}`
    await rig.driver.launch({ url })
    const port = localDesktop(rig.driver)
    const run = await port.run(automation(url), { tags: 'safety, drills' })
    expect(run.error).toBeUndefined()
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ tags: 'safety, drills' })
    const unfold = run.steps.find((s) => s.flowName === 'Unfold the “Tags” section')
    expect(unfold?.status).toBe(open ? 'SKIPPED' : 'SUCCESS')
  }, 60_000)
