// A list into a box that says it separates entries with commas ("Separate tags with commas"):
// typed as its items with commas between them, for the sample and for every call. A box that
// says nothing of the kind never takes a list. Real Chromium on a page served here.
import { expect, test } from 'bun:test'
import { renderTemplate } from '../../../src/automation/templates.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const FORM = `<!doctype html><html><head><title>Notes</title></head><body><main>
<h1>New note</h1>
<form method="post" action="/notes">
<p><label for="t">Title</label> <input id="t" name="title" required></p>
<p><label for="g">Tags</label> <input id="g" name="tags" aria-describedby="gh"> <small id="gh">Separate tags with commas.</small></p>
<button type="submit">Save</button>
</form></main></body></html>`

const notes: { title: string; tags: string }[] = []
const rig = pageRig(async (req) => {
  if (req.method !== 'POST') return htmlPage(FORM)
  const f = await req.formData()
  notes.push({ title: String(f.get('title') ?? ''), tags: String(f.get('tags') ?? '') })
  return htmlPage(
    `<!doctype html><title>Notes</title><main><p role="status">Note ${notes.length} was saved.</p></main>`,
  )
})

test('the commas filter writes a list as its items with commas between them', () => {
  expect(renderTemplate('{{tags | commas}}', { tags: ['bikes', 'office'] })).toBe('bikes, office')
  expect(renderTemplate('{{tags | commas}},', { tags: ['safety'] })).toBe('safety,')
  expect(renderTemplate('{{tags | commas}}', { tags: 'one' })).toBe('one')
})

test('a list goes into a box that separates entries with commas, for the sample and live calls', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: 'Save a note with the given title and tags',
    sample: { id: 's1', input: { title: 'Bike shed opens', tags: ['bikes', 'office'] } },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.lines.join('\n')).toContain('“Tags” separates entries with commas')
  expect(notes.at(-1)).toEqual({ title: 'Bike shed opens', tags: 'bikes, office' })
  await rig.driver.navigate(window.id, rig.server.url.href)
  const run = await port.run(result.automation, { title: 'Printer', tags: ['printers', 'it', 'upstairs'] })
  expect(run.status).toBe('succeeded')
  expect(notes.at(-1)).toEqual({ title: 'Printer', tags: 'printers, it, upstairs' })
}, 60_000)
