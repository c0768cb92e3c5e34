// A form that holds a list of related records with its own toolbar ("Add", "Remove" above a grid
// of categories): those buttons act on the list. The form is sent with its own "Save", even when
// the task's verb is "add".
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../src/builder/index.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../helpers/page-rig.ts'
import { scriptedIO } from './scripted-io.ts'

const saved: Record<string, string>[] = []
const PAGE = (picker: boolean) => `<!doctype html><html><head><title>Parties</title></head><body>
<main><div role="toolbar"><button type="button" id="save">Save</button></div>
<form id="party"><label for="name">Name</label> <input id="name" name="name">
<label for="city">City</label> <input id="city" name="city">
<section aria-label="Categories"><h2>Categories</h2>
<div>${picker ? '<input type="text" name="pick">' : ''}<button type="button">Add</button> <button type="button">Remove</button></div>
<table><thead><tr><th>Category</th></tr></thead><tbody><tr><td>Supplier</td></tr></tbody></table>
</section></form><p id="out" role="status"></p></main>
<script>
document.getElementById('save').addEventListener('click', async () => {
  const body = new URLSearchParams(new FormData(document.getElementById('party')))
  const r = await fetch('/save', { method: 'POST', body })
  document.getElementById('out').textContent = await r.text()
})
</script></body></html>`
const rig = pageRig(async (req) => {
  if (req.method === 'POST') {
    const form = Object.fromEntries(new URLSearchParams(await req.text()))
    saved.push(form)
    return new Response(`Record saved. Code: C${1000 + saved.length}`)
  }
  return htmlPage(PAGE(new URL(req.url).pathname === '/picker'))
})

for (const picker of [false, true])
  test(`the list’s own “Add” is not the form’s send; “Save” is${picker ? ' (with the list’s own box for what to add)' : ''}`, async () => {
    saved.length = 0
    await rig.driver.launch({ url: `${rig.server.url.href}${picker ? 'picker' : ''}` })
    const script = scriptedIO([])
    const result = await buildAutomation(localDesktop(rig.driver), script.io, {
      prompt: 'Add a customer with this name and city',
      sample: { id: 's1', input: { name: 'Northwind Traders', city: 'Leeds' } },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.lines.join('\n')).toContain('The form is sent with “Save”')
    expect(saved).toEqual([{ name: 'Northwind Traders', city: 'Leeds', ...(picker ? { pick: '' } : {}) }])
  }, 60_000)
