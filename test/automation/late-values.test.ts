// A record's form drawn before its values arrive (a client that fetches the record's address in a
// second request): the City box is on the screen, empty, a moment before it holds "Whitby". A read
// must not return that empty moment; a box that really is empty still reads empty. Real Chromium.
import { expect, test } from 'bun:test'
import type { Automation } from '../../src/protocol/automation.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../helpers/page-rig.ts'

const PAGE = (city: string) => `<!doctype html><html><head><title>Party</title></head><body>
<h1>Harbour Lights Cafe</h1>
<label for="city">City:</label> <input id="city">
<p id="busy">Loading</p>
<script>
  // The address comes in a second request, after the form is drawn; until then the page shows
  // that it is busy (it never rests before the value is there).
  let ticks = 0
  const timer = setInterval(() => {
    document.getElementById('busy').textContent = 'Loading' + '.'.repeat(++ticks % 4)
    if (ticks < 6) return
    clearInterval(timer)
    document.getElementById('city').value = '${city}'
    document.getElementById('busy').textContent = 'Loaded'
  }, 100)
</script></body></html>`

const rig = pageRig(async (req) => htmlPage(PAGE(new URL(req.url).searchParams.get('city') ?? '')))

const automation = (url: string): Automation => ({
  version: 1,
  app: { url },
  steps: [
    {
      kind: 'read',
      name: 'Read “city”',
      target: { fingerprints: [{ by: 'role', role: 'textbox', name: 'City:' }], description: 'the City box' },
      into: 'city',
    },
  ],
  scenarios: [],
})

test('a value filled in after the form is drawn is read, not the empty box before it', async () => {
  const url = `${rig.server.url.href}?city=Whitby`
  await rig.driver.launch({ url })
  const run = await localDesktop(rig.driver).run(automation(url), {})
  expect(run.error).toBeUndefined()
  expect(run.result).toEqual({ city: 'Whitby' })
}, 60_000)

test('a box that stays empty reads empty', async () => {
  const url = rig.server.url.href
  await rig.driver.launch({ url })
  const run = await localDesktop(rig.driver).run(automation(url), {})
  expect(run.status).toBe('succeeded')
  expect(run.result).toEqual({ city: '' })
}, 60_000)
