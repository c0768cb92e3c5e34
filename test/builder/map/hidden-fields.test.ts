// Fields a form hides until asked: behind a folded section (a collapsed "Tags" panel beside the
// editor, which the app keeps open from one visit to the next) and on another tab of the form.
// The builder unfolds or switches as a person does, and a run does not fold a section that is
// already open. Real Chromium on pages served here.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import type { Step } from '../../../src/protocol/automation.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

// The panel's open state is kept in the page's storage, as editors keep their panels.
const FOLDED = `<!doctype html><html><head><title>Notes</title></head><body><main>
<h1>New note</h1>
<form id="f" method="post" action="/folded">
<p><label for="t">Title</label> <input id="t" name="title" required></p>
<p><label for="b">Text</label> <textarea id="b" name="text"></textarea></p>
<button type="submit">Save</button>
</form></main>
<aside><h2>Details</h2>
<button type="button" id="toggle" aria-expanded="false" aria-controls="panel">Tags</button>
<div id="panel" hidden><label for="g">Tags</label> <input id="g" name="tags" form="f"></div>
</aside>
<script>
const toggle = document.getElementById('toggle'), panel = document.getElementById('panel')
const show = (open) => { panel.hidden = !open; toggle.setAttribute('aria-expanded', String(open)) }
show(localStorage.getItem('tags-open') === '1')
toggle.onclick = () => { const open = panel.hidden; localStorage.setItem('tags-open', open ? '1' : '0'); show(open) }
</script></body></html>`

const TABBED = `<!doctype html><html><head><title>Notes</title></head><body><main>
<h1>New note</h1>
<form method="post" action="/tabbed">
<div role="tablist">
<button type="button" role="tab" id="c" aria-selected="true" aria-controls="pc">Content</button>
<button type="button" role="tab" id="s" aria-selected="false" aria-controls="ps">Settings</button>
</div>
<div role="tabpanel" id="pc" aria-labelledby="c">
<p><label for="t">Title</label> <input id="t" name="title" required></p>
<p><label for="b">Text</label> <textarea id="b" name="text"></textarea></p>
</div>
<div role="tabpanel" id="ps" aria-labelledby="s" hidden>
<p><label for="g">Tags</label> <input id="g" name="tags"></p>
</div>
<button type="submit">Save</button>
</form></main>
<script>
for (const tab of document.querySelectorAll('[role=tab]')) tab.onclick = () => {
  for (const t of document.querySelectorAll('[role=tab]')) {
    t.setAttribute('aria-selected', String(t === tab))
    document.getElementById(t.getAttribute('aria-controls')).hidden = t !== tab
  }
}
</script></body></html>`

const notes: { title: string; text: string; tags: string }[] = []
const rig = pageRig(async (req) => {
  const url = new URL(req.url)
  if (req.method !== 'POST') return htmlPage(url.pathname === '/tabbed' ? TABBED : FOLDED)
  const f = await req.formData()
  const [title, text, tags] = ['title', 'text', 'tags'].map((k) => String(f.get(k) ?? ''))
  notes.push({ title: title!, text: text!, tags: tags! })
  return htmlPage(
    `<!doctype html><title>Notes</title><main><p role="status">Note ${notes.length} was saved.</p></main>`,
  )
})

const prompt = 'Save a note with the given title, text and tags'
const sample = { title: 'Kitchen rota', text: 'Week 12: Ada and Linus.', tags: 'kitchen' }
const clicks = (steps: Step[]) => steps.filter((s) => s.kind === 'click')

test('a folded section holding a field of the sample is unfolded, and only while it is folded', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt,
    sample: { id: 's1', input: sample },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  const unfold = clicks(result.automation.steps).find((s) => s.name === 'Unfold the “Tags” section')
  expect(unfold?.onlyIf).toMatchObject({ kind: 'disappears' })
  expect(notes.at(-1)).toEqual(sample)
  // The app now keeps the panel open: a run leaves it so and fills it.
  await rig.driver.navigate(window.id, rig.server.url.href)
  const open = { title: 'Fire drill', text: 'Thursday at ten.', tags: 'safety' }
  const run = await port.run(result.automation, open)
  expect(run.status).toBe('succeeded')
  expect(notes.at(-1)).toEqual(open)
  // Folded again: a run unfolds it first.
  await rig.driver.navigate(window.id, rig.server.url.href)
  await port.run(
    {
      ...result.automation,
      steps: [{ kind: 'click', name: 'Fold it', target: unfold!.target }],
      outputs: {},
    },
    {},
  )
  await rig.driver.navigate(window.id, rig.server.url.href)
  const folded = { title: 'Printer', text: 'Upstairs now.', tags: 'it' }
  expect((await port.run(result.automation, folded)).status).toBe('succeeded')
  expect(notes.at(-1)).toEqual(folded)
}, 90_000)

test('a value no field of the shown tab takes is filled on the form’s other tab', async () => {
  const window = await rig.driver.launch({ url: new URL('/tabbed', rig.server.url).href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt,
    sample: { id: 's2', input: sample },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.lines.join('\n')).toContain('The “Settings” tab took “tags”')
  expect(notes.at(-1)).toEqual(sample)
  await rig.driver.navigate(window.id, new URL('/tabbed', rig.server.url).href)
  const other = { title: 'Fire drill', text: 'Thursday at ten.', tags: 'safety' }
  expect((await port.run(result.automation, other)).status).toBe('succeeded')
  expect(notes.at(-1)).toEqual(other)
}, 90_000)
