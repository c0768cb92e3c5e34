// A list shown written out in one place (a record's "Folders: Invoices, Scans"), not as rows: in
// real Chromium, the table of the record's fields is no list of records, so the builder asks to
// point at the list; the value pointed at is read as a list, split at the separator it shows, and
// each live call reads its own record's.
import { expect, test } from 'bun:test'
import { indexTree } from '../../../src/automation/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { pointAnswer } from '../../../src/protocol/questions.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const DEVICES: Record<string, { address: string; folders: string[]; introducer?: string }> = {
  'Office NAS': { address: 'Leeds, UK', folders: ['Invoices', 'Scans', 'Contracts'] },
  // Another record shows one more row, above the folders: the list is found by its caption.
  'Studio iMac': {
    address: 'tcp://10.0.0.7, dynamic',
    folders: ['Podcast Raw', 'Podcast Edits'],
    introducer: 'Office NAS, Laptop',
  },
}

const page = `<!doctype html><html><head><title>Devices</title></head><body><main><h1>Devices</h1>
<form method="post" action="/device"><label>Device name <input name="device" required></label>
<button type="submit">Show</button></form></main></body></html>`

const record = (name: string) => {
  const d = DEVICES[name]
  if (!d) return `<!doctype html><title>Devices</title><main><h1>No such device</h1></main>`
  return `<!doctype html><html><head><title>Devices</title></head><body><main><h1>${name}</h1>
<table>${d.introducer ? `<tr><th scope="row">Introduced by</th><td>${d.introducer}</td></tr>` : ''}
<tr><th scope="row">Address</th><td>${d.address}</td></tr>
<tr><th scope="row">Folders</th><td>${d.folders.join(', ')}</td></tr>
<tr><th scope="row">Last seen</th><td>Never</td></tr></table></main></body></html>`
}

const rig = pageRig(async (req) =>
  htmlPage(req.method === 'POST' ? record(String((await req.formData()).get('device'))) : page),
)

/** Builds the job, the person pointing at the value that starts with `at` when asked for the list. */
async function built(at: string) {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO()
  const ask = script.io.ask.bind(script.io)
  script.io.ask = async (q) => {
    if (q.kind !== 'point') return ask(q)
    expect(q.text).toContain('Point at the list')
    const shot = await rig.driver.snapshot(q.windowId!)
    const cell = indexTree(shot.root).all.find((e) => e.role === 'cell' && e.name.startsWith(at))!
    const b = cell.bounds!
    script.questions.push({ question: q, answer: 'point' })
    return pointAnswer(b.x + b.width / 2, b.y + b.height / 2)
  }
  const result = await buildAutomation(port, script.io, {
    prompt: 'List the folders shared with the device of this name',
    sample: { id: 's1', input: { device: 'Office NAS' }, expect: { folders: { $type: 'array' } } },
    previous: [],
  })
  return { window, port, script, result }
}

test('a list written out in one cell is pointed at, split at its commas, and read in its caption’s row for each call’s own record', async () => {
  const { window, port, script, result } = await built('Invoices')
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.questions.map((q) => q.question.kind)).toEqual(['point'])
  await rig.driver.navigate(window.id, rig.server.url.href)
  const run = await port.run(result.automation, { device: 'Studio iMac' })
  expect(run.status).toBe('succeeded')
  expect(run.result).toEqual({ folders: ['Podcast Raw', 'Podcast Edits'] })
}, 90_000)

test('a value whose caption does not name the list is not split into one (an address “Leeds, UK”)', async () => {
  const { result } = await built('Leeds')
  expect(result.ok).toBe(false)
}, 90_000)
