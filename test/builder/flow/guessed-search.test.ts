// A lookup whose only box on the first screen is the app's global box (named "Action", as a
// command box or site-wide search is), in real Chromium: the builder takes it for the search,
// presses Enter, and nothing changes. That box was a guess, so rather than fail the build asks to
// be shown (docs/builder.md, "observe"); a build that cannot receive a recording fails as before.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const home = `<!doctype html><html><head><title>Office</title></head><body>
<header><input type="search" aria-label="Action" placeholder="Action"></header>
<nav><a href="/parties">Parties</a> <a href="/reports">Reports</a></nav>
<main><h1>Welcome</h1><p>Pick something from the menu.</p></main>
</body></html>`

const rig = pageRig(() => htmlPage(home))

const request = {
  prompt: 'Look up the customer with this name and tell me which city they are in',
  sample: { id: 's1', input: { name: 'Ada Lovelace' }, expect: { city: 'London' } },
  previous: [],
}

describe('a search box that was a guess', () => {
  test('Enter in it changes nothing: the builder asks to be shown, saying why', async () => {
    await rig.driver.launch({ url: rig.server.url.href })
    const script = scriptedIO([
      {
        kind: 'demonstrate',
        answer: () => '',
        // The person is asked; this test stops there (what a recording then builds is tested in
        // test/builder/demonstration/).
        record: () => {
          throw new Error('asked to be shown')
        },
      },
    ])
    const stopped = await buildAutomation(localDesktop(rig.driver), script.io, request).catch((e: Error) => e)
    expect(stopped).toBeInstanceOf(Error)
    expect((stopped as Error).message).toBe('asked to be shown')
    expect(script.unexpected).toEqual([])
    const asked = script.progress.find((p) => p.message.includes('asking to be shown'))
    expect(String(asked?.data?.reason)).toContain('Nothing visible changed within 10 s of “Enter”')
    expect(script.lines.findIndex((l) => l.includes('“Action” is a search box'))).toBeGreaterThan(-1)
  }, 90_000)

  test('a build that cannot be shown fails, saying what changed nothing', async () => {
    await rig.driver.launch({ url: rig.server.url.href })
    const script = scriptedIO([])
    const result = await buildAutomation(localDesktop(rig.driver), script.io, request)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.code).toBe('NO_OUTCOME')
    expect(script.unexpected).toEqual([])
  }, 90_000)
})
