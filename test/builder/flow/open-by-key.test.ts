// Looking a record up by a key that is not an id ("open the message with the given subject"), in
// real Chromium on a small mailbox page: the subject goes into the mailbox's search box, Enter
// lists the match, the builder opens the result named by the subject (once), and reads the
// sender beside “From” and the only date the message shows. The message opens in an iframe, as
// webmail does: its content is part of the window a person sees. The automation then runs live
// on another subject.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

const MAIL = [
  { id: 1, from: 'Maria Keller', subject: 'Invoice 2291 for February deliveries', date: '2025-03-03 12:05' },
  { id: 2, from: 'Paul Richter', subject: 'Catering quote for the spring party', date: '2025-03-14 13:00' },
  { id: 3, from: 'Anna Schulz', subject: 'Room block confirmation', date: '2025-03-17 12:45' },
]
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

const mailbox = `<!doctype html><html><head><title>Webmail :: Inbox</title></head><body>
<nav><a href="/">Inbox</a> <a href="/compose">Compose</a></nav>
<form id="search" onsubmit="event.preventDefault(); search(this.q.value)">
  <input type="search" name="q" placeholder="Search...">
</form>
<table id="list" aria-label="Messages"></table>
<iframe id="preview" title="Message" src="about:blank" style="width:600px;height:300px;border:1px solid"></iframe>
<script>
  const mail = ${JSON.stringify(MAIL)}
  function search(q) {
    const list = document.getElementById('list')
    list.innerHTML = ''
    for (const m of mail.filter((m) => m.subject.toLowerCase().includes(q.toLowerCase()))) {
      const row = list.insertRow()
      row.insertCell().textContent = m.from
      const a = document.createElement('a')
      a.href = '/message?id=' + m.id
      a.textContent = m.subject
      // The list shows the message in the preview frame, not as a page of its own.
      a.onclick = (e) => { e.preventDefault(); document.getElementById('preview').src = a.href }
      row.insertCell().appendChild(a)
    }
  }
</script></body></html>`

const message = (
  m: (typeof MAIL)[number],
) => `<!doctype html><html><head><title>${esc(m.subject)}</title></head>
<body><div id="header"><h2>${esc(m.subject)}</h2>
<span>From</span> <a href="mailto:x@example.com">${esc(m.from)}</a> <span>on</span> <span>${m.date}</span></div>
<p>Hello, please find the details below. Kind regards</p></body></html>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      const html = { headers: { 'content-type': 'text/html; charset=utf-8' } }
      if (url.pathname === '/message') {
        const m = MAIL.find((x) => String(x.id) === url.searchParams.get('id'))
        return m ? new Response(message(m), html) : new Response('not found', { status: 404 })
      }
      return new Response(mailbox, html)
    },
  })
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  server?.stop(true)
})

describe('a record looked up by its key', () => {
  test('search for the subject, open the result, read the sender beside “From” and the date', async () => {
    const window = await driver.launch({ url: server.url.href })
    const port = localDesktop(driver)
    const script = scriptedIO()
    const result = await buildAutomation(port, script.io, {
      prompt: 'Open the message with the given subject and return its sender and date',
      sample: {
        id: 's1',
        input: { subject: MAIL[0]!.subject },
        expect: { sender: { $type: 'string' }, date: { $type: 'string' } },
      },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions).toEqual([])
    await driver.navigate(window.id, server.url.href)
    const run = await port.run(result.automation, { subject: MAIL[2]!.subject })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ sender: 'Anna Schulz', date: '2025-03-17 12:45' })
  }, 90_000)
})
