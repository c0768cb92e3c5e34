// Rich-text editors in real Chromium: a contenteditable region (a post's text, a message body)
// and an editor whose body is its own editable frame are text fields in the snapshot, named by
// their labels, holding their text, and a fill types into them.
import { describe, expect, test } from 'bun:test'
import { elementsWhen, flatten, htmlPage, pageRig } from '../helpers/page-rig.ts'

const FRAME_BODY = `<!doctype html><html><body contenteditable="true"><p>Dear team,</p></body></html>`
const PAGE = `<!doctype html><title>Compose</title><h1>New message</h1>
<label for="subject">Subject</label><input id="subject">
<div contenteditable="true" aria-label="Message body" style="min-height:60px;border:1px solid"><p>Hello <b>there</b></p></div>
<iframe src="/frame" title="Notes editor" style="width:300px;height:80px"></iframe>
<p>Just text</p><button>Send</button>`

const rig = pageRig((request) => {
  const frame = new URL(request.url).pathname === '/frame'
  return htmlPage(frame ? FRAME_BODY : PAGE)
})

describe('rich-text editors', () => {
  test('a contenteditable region is one text field holding its text, and takes a fill', async () => {
    const window = await rig.driver.launch({ url: `${rig.server.url}` })
    const all = await elementsWhen(
      rig.driver,
      window.id,
      (all) => all.filter((e) => e.role === 'textbox').length >= 3,
    )
    const boxes = all.filter((e) => e.role === 'textbox')
    const body = boxes.find((e) => e.name === 'Message body')
    expect(body?.value).toBe('Hello there')
    expect(body?.children).toEqual([])
    // The paragraphs inside are the field's value, not elements of their own.
    expect(all.some((e) => e.role === 'text' && e.name.includes('Hello'))).toBe(false)
    // The frame's editable body is a field too; plain text stays text.
    expect(boxes.some((e) => e.value === 'Dear team,')).toBe(true)
    expect(all.some((e) => e.role === 'text' && e.name === 'Just text')).toBe(true)

    await rig.driver.act(window.id, {
      kind: 'fill',
      ref: body!.ref,
      value: 'The office is closed on Monday.',
    })
    const framed = boxes.find((e) => e.value === 'Dear team,')!
    await rig.driver.act(window.id, { kind: 'fill', ref: framed.ref, value: 'Minutes attached.' })
    const after = flatten((await rig.driver.snapshot(window.id)).root).filter((e) => e.role === 'textbox')
    expect(after.find((e) => e.name === 'Message body')?.value).toBe('The office is closed on Monday.')
    expect(after.some((e) => e.value === 'Minutes attached.')).toBe(true)
  }, 30_000)
})
