// A drop-down that filters a list as it is set, with no button to send it: the job waits for the
// list's rows, says so in the drop-down's own words (not a search box's), and reads the rows the
// filter left. Real Chromium on a page served here.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const TICKETS = [
  ['Printer jams on tray 2', 'Open'],
  ['New starter laptop', 'Closed'],
  ['VPN drops at noon', 'Open'],
  ['Replace kitchen kettle', 'Waiting'],
  ['Badge reader at door B', 'Closed'],
]
const PAGE = `<!doctype html><html><head><title>Helpdesk tickets</title></head><body>
<h1>Helpdesk tickets</h1>
<label for="status">Status</label>
<select id="status"><option value="">Any</option><option>Open</option><option>Waiting</option><option>Closed</option></select>
<table><thead><tr><th>Title</th><th>Status</th></tr></thead><tbody id="rows"></tbody></table>
<script>
const tickets = ${JSON.stringify(TICKETS)}
const rows = document.getElementById('rows'), status = document.getElementById('status')
const draw = () => {
  rows.innerHTML = tickets.filter(([, s]) => !status.value || s === status.value)
    .map(([t, s]) => '<tr><td>' + t + '</td><td>' + s + '</td></tr>').join('')
}
status.addEventListener('change', draw)
draw()
</script></body></html>`
const rig = pageRig(async () => htmlPage(PAGE))

test('a drop-down that filters as it is set is waited for by its rows, and said to be a drop-down', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: 'List the titles of the tickets with a given status',
    sample: { id: 's1', input: { status: 'Open' }, expect: { titles: { $type: 'array' } } },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  const said = script.lines.join('\n')
  expect(said).toContain('The drop-down filters as it is set')
  expect(said).not.toContain('The search box filters')
  for (const [status, titles] of [
    ['Closed', ['New starter laptop', 'Badge reader at door B']],
    ['Waiting', ['Replace kitchen kettle']],
  ] as const) {
    await rig.driver.navigate(window.id, rig.server.url.href)
    const run = await port.run(result.automation, { status })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ titles: [...titles] })
  }
}, 90_000)
