// A value the task names is part of the task: when nothing on the form can take it, the builder
// asks (point at its field, or say it is not there) instead of dropping it unasked; a value only
// the sample brings is left out with a progress line, as before. Real Chromium on a page served here.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { NONE_OF_THESE } from '../../../src/protocol/questions.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const FORM = `<!doctype html><html><head><title>Notes</title></head><body><main>
<h1>New note</h1>
<form method="post" action="/notes">
<p><label for="t">Title</label> <input id="t" name="title" required></p>
<p><label for="b">Text</label> <textarea id="b" name="text"></textarea></p>
<button type="submit">Save</button>
</form></main></body></html>`

const notes: { title: string; text: string }[] = []
const rig = pageRig(async (req) => {
  if (req.method !== 'POST') return htmlPage(FORM)
  const f = await req.formData()
  notes.push({ title: String(f.get('title') ?? ''), text: String(f.get('text') ?? '') })
  return htmlPage(
    `<!doctype html><title>Notes</title><main><p role="status">Note ${notes.length} was saved.</p></main>`,
  )
})

test('a value the task names with no field is asked about; one only the sample brings is not', async () => {
  await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([{ kind: 'point', answer: () => NONE_OF_THESE }])
  const result = await buildAutomation(port, script.io, {
    prompt: 'Save a note with the given title, text and tags',
    sample: {
      id: 's1',
      input: { title: 'Kitchen rota', text: 'Week 12: Ada and Linus.', tags: 'kitchen', ref: 'N-77' },
    },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  // Asked once, about the tags only: the task names them, it does not name the reference.
  expect(script.questions.map((q) => q.question.kind)).toEqual(['point'])
  expect(script.questions[0]!.question.text).toContain('“tags” (“kitchen”), which the task names')
  const log = script.lines.join('\n')
  expect(log).toContain('“tags” is left out, as answered')
  expect(log).toContain('Nothing on this screen can take “ref”; it is not used')
  expect(notes.at(-1)).toEqual({ title: 'Kitchen rota', text: 'Week 12: Ada and Linus.' })
})
