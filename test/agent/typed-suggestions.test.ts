// Boxes that keep only what is picked from their suggestions (a requestor, a tag), as token
// widgets built without ARIA do: they drop typed text when the box loses focus. The browser
// driver's fill picks the suggestion that holds the typed value, as a person does; boxes that
// search, and records listed under a box, are never clicked. Real Chromium, pages served here.
import { expect, test } from 'bun:test'
import type { UiElement } from '../../src/protocol/elements.ts'
import { flatten, htmlPage, pageRig } from '../helpers/page-rig.ts'

const PAGE = `<!doctype html><meta charset="utf-8"><title>New ticket</title>
<form onsubmit="return false">
  <label for="req">Requestors</label>
  <div class="tokens"><span id="chosen">[root (Sam Carter)]</span><input id="req" autocomplete="off"></div>
  <div style="position:relative"><div id="drop" style="display:none;position:absolute;top:0;left:0;background:#fff;border:1px solid #888"></div></div>
  <p><label for="subject">Subject</label> <input id="subject" autocomplete="off"></p>
  <p><label for="q">Search tickets</label> <input id="q" autocomplete="off"></p>
</form>
<table><tr><td>Printer jam on floor 2</td></tr><tr><td>ada@example.com asked about VPN</td></tr></table>
<p id="log"></p>
<script>
  const req = document.getElementById('req'), drop = document.getElementById('drop')
  const people = ['grace@example.com', 'Ada Lovelace &lt;ada@example.com&gt;']
  // Suggestions come a little after a key is released, as from a server; typing that is not
  // picked is dropped when the box loses focus.
  req.addEventListener('keyup', () => setTimeout(() => {
    const typed = req.value.toLowerCase()
    drop.innerHTML = ''
    for (const p of people.filter((x) => typed && x.toLowerCase().includes(typed)))
      drop.insertAdjacentHTML('beforeend', '<div class="option" data-selectable>' + p + '</div>')
    if (typed.includes('@')) drop.insertAdjacentHTML('beforeend', '<div class="create" data-selectable>Add <strong></strong>…</div>')
    const create = drop.querySelector('.create strong'); if (create) create.textContent = req.value
    drop.style.display = drop.children.length ? 'block' : 'none'
    for (const d of drop.children) d.style.cursor = 'pointer'
    for (const d of drop.children) d.onmousedown = (e) => {
      e.preventDefault()
      document.getElementById('chosen').textContent += '[' + d.textContent.replace(/^Add |…$/g, '') + ']'
      req.value = ''
      drop.style.display = 'none'
    }
  }, 120))
  // Backspace in the empty box takes back the last token.
  req.addEventListener('keydown', (e) => {
    const chosen = document.getElementById('chosen')
    if (e.key === 'Backspace' && req.value === '') chosen.textContent = chosen.textContent.slice(0, Math.max(0, chosen.textContent.lastIndexOf('[')))
  })
  req.addEventListener('blur', () => { req.value = ''; drop.style.display = 'none' })
  // The subject box shows a live preview under it; the search box lists matches. Neither is a pick.
  document.getElementById('subject').addEventListener('input', (e) => {
    const preview = document.createElement('div')
    preview.textContent = 'Preview: ' + e.target.value
    // Clickable, but in the flow of the page: no suggestion list floats over it.
    preview.style.cursor = 'pointer'
    preview.onclick = () => { document.title = 'preview clicked' }
    document.getElementById('subject').after(preview)
  })
  document.getElementById('q').addEventListener('input', (e) => {
    document.getElementById('log').innerHTML = '<ul><li>Match: ' + e.target.value + '</li></ul>'
  })
</script>`

const FOLDER_PAGE = `<!doctype html><meta charset="utf-8"><title>Add folder</title>
<form onsubmit="return false">
  <label for="path">Folder Path</label> <input id="path" list="dirs" value="~/default">
  <datalist id="dirs"><option value="/srv/photos"><option value="/srv/scans"></datalist>
  <label for="kind">Kind</label> <input id="kind" role="combobox" aria-autocomplete="list" aria-expanded="false">
</form>`

const rig = pageRig((req) => htmlPage(new URL(req.url).pathname.startsWith('/folders') ? FOLDER_PAGE : PAGE))

async function fill(windowId: string, name: string, value: string) {
  const root = (await rig.driver.snapshot(windowId)).root
  const box = flatten(root).find((e) => e.name === name && /textbox|combobox/.test(e.role))!
  await rig.driver.act(windowId, { kind: 'fill', ref: box.ref, value })
}

const text = async (windowId: string) => JSON.stringify((await rig.driver.snapshot(windowId)).root)

test('a typed value the box offers back is picked: an address no one has used yet, and a known person', async () => {
  // The box starts with a token the app put in (the signed-in user): filling it starts afresh.
  const window = await rig.driver.launch({ url: `${rig.server.url}tickets/new` })
  await fill(window.id, 'Requestors', 'maria.lopez@example.com')
  await fill(window.id, 'Requestors', 'ada@example.com')
  // Moving on to the next box would have dropped unpicked text; both are tokens now.
  await fill(window.id, 'Subject', 'Printer jam')
  expect(await text(window.id)).toContain('"name":"[Ada Lovelace <ada@example.com>]"')
})

test('a preview under a box, a search box’s matches and records in a table are never clicked', async () => {
  const window = await rig.driver.launch({ url: `${rig.server.url}tickets/new` })
  await fill(window.id, 'Subject', 'Printer jam on floor 2')
  expect(await text(window.id)).toContain('Preview: Printer jam on floor 2')
  expect((await rig.driver.listWindows()).find((w) => w.id === window.id)?.title).toBe('New ticket')
  await fill(window.id, 'Search tickets', 'VPN')
  const after = await text(window.id)
  expect(after).toContain('Match: VPN')
  expect(after).toContain('Printer jam on floor 2')
  expect((await rig.driver.listWindows()).find((w) => w.id === window.id)?.url).toContain('/tickets/new')
})

test('a text box with a suggestion list (<input list>) is a text box: any text is typed, suggested or not', async () => {
  const window = await rig.driver.launch({ url: `${rig.server.url}folders/new` })
  const root = (await rig.driver.snapshot(window.id)).root
  const field = (all: UiElement[], name: string) => all.find((e) => e.name === name && e.role !== 'text')
  const path = field(flatten(root), 'Folder Path')!
  expect(path.role).toBe('textbox')
  // An ARIA combo box is one by the page's own word.
  expect(field(flatten(root), 'Kind')?.role).toBe('combobox')
  await rig.driver.act(window.id, { kind: 'fill', ref: path.ref, value: '/home/ana/tax-papers' })
  const after = field(flatten((await rig.driver.snapshot(window.id)).root), 'Folder Path')
  expect(after?.value).toBe('/home/ana/tax-papers')
})
