// A list filtered by a drop-down that applies as it is set, in real Chromium: the drop-down is an
// ARIA combobox whose options exist only once it is opened (as single-page apps draw them), it
// shows "Paid" for the caller's "paid", and nothing sends it (Enter would only open it again).
// The builder sets it, sees the rows change, reads the list, and a live call filters its own way.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const ORDERS = [
  { reference: 'SO-1001', customer: 'Rosa Baker', status: 'Paid' },
  { reference: 'SO-1002', customer: 'Omar Haddad', status: 'Pending' },
  { reference: 'SO-1003', customer: 'Ines Flores', status: 'Shipped' },
  { reference: 'SO-1004', customer: 'Omar Haddad', status: 'Paid' },
  { reference: 'SO-1005', customer: 'Rosa Baker', status: 'Unpaid' },
]

const page = `<!doctype html><html><head><title>Back office</title></head><body>
<h1>Orders</h1>
<form onsubmit="event.preventDefault()">
  <span id="status-label">Status</span>
  <div id="status" role="combobox" tabindex="0" aria-labelledby="status-label" aria-haspopup="listbox"
    aria-expanded="false" aria-controls="status-list" style="display:inline-block;min-width:120px;border:1px solid">&nbsp;</div>
</form>
<div id="popup"></div>
<table><thead><tr><th>Reference</th><th>Customer</th><th>Status</th></tr></thead><tbody id="rows"></tbody></table>
<script>
  const orders = ${JSON.stringify(ORDERS)}
  const box = document.getElementById('status')
  function show(filter) {
    document.getElementById('rows').innerHTML = orders
      .filter((o) => !filter || o.status === filter)
      .map((o) => '<tr><td>' + o.reference + '</td><td>' + o.customer + '</td><td>' + o.status + '</td></tr>')
      .join('')
  }
  function close() {
    document.getElementById('popup').innerHTML = ''
    box.setAttribute('aria-expanded', 'false')
  }
  function open() {
    const list = document.createElement('ul')
    list.id = 'status-list'
    list.setAttribute('role', 'listbox')
    for (const s of ['Pending', 'Paid', 'Unpaid', 'Shipped']) {
      const li = document.createElement('li')
      li.setAttribute('role', 'option')
      li.textContent = s
      li.onclick = () => { box.textContent = s; close(); show(s) }
      list.appendChild(li)
    }
    document.getElementById('popup').appendChild(list)
    box.setAttribute('aria-expanded', 'true')
  }
  box.onclick = () => (box.getAttribute('aria-expanded') === 'true' ? close() : open())
  box.onkeydown = (e) => { if (e.key === 'Enter') open() }
  show('')
</script></body></html>`

const rig = pageRig(() => htmlPage(page))

describe('a list filtered by a drop-down that applies as it is set', () => {
  test('the drop-down takes the value, nothing is sent, the rows are read; a live call filters its own way', async () => {
    const window = await rig.driver.launch({ url: rig.server.url.href })
    const port = localDesktop(rig.driver)
    const script = scriptedIO([
      {
        kind: 'choose_outputs',
        answer: (q) => q.options.filter((o) => /reference|customer/i.test(o.label)).map((o) => o.value),
      },
    ])
    const result = await buildAutomation(port, script.io, {
      prompt: 'List the orders that have the given status, with the reference and customer of each',
      sample: { id: 's1', input: { status: 'paid' }, expect: { orders: { $type: 'array' } } },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.lines.some((l) => l.includes('they filter it as they are set'))).toBe(true)
    expect(JSON.stringify(result.automation)).not.toContain('"keys":"Enter"')

    await rig.driver.navigate(window.id, rig.server.url.href)
    const run = await port.run(result.automation, { status: 'shipped' })
    expect(run.status).toBe('succeeded')
    const text = JSON.stringify(run.result)
    expect(text).toContain('SO-1003')
    expect(text).not.toContain('SO-1001')
  }, 90_000)
})
