// A search box that shows its results as it is typed into, in a list that opens under it (bare
// links, no list or table), beside a list the page shows all along that names some of the same
// notes. Enter changes nothing; the job waits for the results and reads them, never the list
// shown all along. Real Chromium on a page served here.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const NOTES = [
  'Kitchen rota',
  'Kitchen supplies',
  'Fire drill',
  'Printer upstairs',
  'Bike shed',
  'Kitchen cleaning day',
]
const PAGE = `<!doctype html><html><head><title>Office notes</title>
<style>#hits{position:absolute;top:40px;right:10px;background:#fff;border:1px solid #ccc;width:300px}</style></head><body>
<header><h1>Office notes</h1>
<input type="search" id="q" placeholder="Search" aria-label="Search">
<div id="hits" hidden></div></header>
<main><h2>Recent</h2><ul>${NOTES.slice(0, 3)
  .map((n) => `<li><a href="#${encodeURIComponent(n)}">${n}</a></li>`)
  .join('')}</ul></main>
<script>
const notes = ${JSON.stringify(NOTES)}
const q = document.getElementById('q'), hits = document.getElementById('hits')
q.addEventListener('input', () => {
  const w = q.value.trim().toLowerCase()
  if (!w) { hits.hidden = true; return }
  const found = notes.filter((n) => n.toLowerCase().includes(w))
  hits.innerHTML = '<p>' + found.length + ' matches</p>' +
    found.map((n) => '<a href="#' + encodeURIComponent(n) + '">' + n + '</a><br>').join('')
  hits.hidden = false
})
q.addEventListener('blur', () => setTimeout(() => { hits.hidden = true }, 150))
</script></body></html>`
const rig = pageRig(async () => htmlPage(PAGE))

test('results shown as they are typed are read from under the search box, not from the list beside it', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: 'Search the notes for a word and return the titles of the notes found',
    sample: { id: 's1', input: { word: 'kitchen' }, expect: { titles: { $type: 'array' } } },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.lines.join('\n')).toContain('The search box filters as it is typed into')
  for (const [word, titles] of [
    ['printer', ['Printer upstairs']],
    ['kitchen', ['Kitchen rota', 'Kitchen supplies', 'Kitchen cleaning day']],
    ['shed', ['Bike shed']],
  ] as const) {
    await rig.driver.navigate(window.id, rig.server.url.href)
    const run = await port.run(result.automation, { word })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ titles: [...titles] })
  }
}, 90_000)
