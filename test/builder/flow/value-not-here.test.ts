// A create whose form does not show where one of the task's values goes (the e-mail is a line of
// a list inside the form, added with that list's own "New"): asked where it goes, the person says
// it is not on this screen. A value the task names is never silently left out of every call: a
// build that can be shown asks to be shown; one that cannot leaves it out as answered. Real Chromium.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const saved: string[] = []
const page = `<!doctype html><html><head><title>New party</title></head><body>
<form method="post" action="/save"><label for="name">Name</label> <input id="name" name="name">
<section aria-label="Contact mechanisms"><h2>Contact mechanisms</h2><button type="button">New</button>
<table><thead><tr><th>Type</th><th>Value</th></tr></thead><tbody></tbody></table></section>
<button>Save</button></form></body></html>`
const rig = pageRig(async (req) => {
  if (req.method === 'POST') {
    saved.push(String((await req.formData()).get('name')))
    return htmlPage('<!doctype html><title>Saved</title><p role="status">Party saved</p>')
  }
  return htmlPage(page)
})

const request = {
  prompt: 'Add a customer with this name and email address',
  sample: { id: 's1', input: { name: 'Northwind Traders', email: 'orders@northwind.example' } },
  previous: [],
}
const notHere = [
  { kind: 'map_field' as const, answer: () => '__none__' },
  { kind: 'point' as const, answer: () => '__none__' },
]

describe('a value the task names, not on this screen', () => {
  test('a build that can be shown asks to be shown, before anything is saved', async () => {
    await rig.driver.launch({ url: rig.server.url.href })
    const script = scriptedIO([
      ...notHere,
      {
        kind: 'demonstrate',
        answer: () => '',
        record: () => {
          throw new Error('asked to be shown')
        },
      },
    ])
    const stopped = await buildAutomation(localDesktop(rig.driver), script.io, request).catch((e: Error) => e)
    if (!(stopped instanceof Error)) throw new Error(script.lines.join('\n'))
    expect(stopped.message).toBe('asked to be shown')
    expect(script.unexpected).toEqual([])
    const asked = script.progress.find((p) => p.message.includes('asking to be shown'))
    expect(String(asked?.data?.reason)).toContain(
      '“email” (“orders@northwind.example”) has no field on this screen',
    )
    expect(saved).toEqual([])
  }, 90_000)

  test('a build that cannot be shown leaves it out, as answered', async () => {
    await rig.driver.launch({ url: rig.server.url.href })
    const script = scriptedIO(notHere)
    await buildAutomation(localDesktop(rig.driver), script.io, request)
    expect(script.unexpected).toEqual([])
    expect(script.lines.join('\n')).toContain('“email” is left out, as answered')
  }, 90_000)
})
