// The steps the builder writes for composite controls and mapped options, run for real: the
// mapping is made on a live snapshot (real Chromium through the browser driver), the runner
// executes it, and what the page received is read back — for the sample and for live calls
// with new values. Apps: fossil's new-ticket form (Debian's fossil, started here) and the widget
// patterns of snapshots/pages.ts, served here with a line that shows the form's state.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../../src/automation/index.ts'
import type { BuildRequest, DesktopPort } from '../../../src/builder/contract.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { mapFields } from '../../../src/builder/map/map-fields.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import type { Automation, Step } from '../../../src/protocol/automation.ts'
import { optionLabelled, type Reply, scriptedIO } from '../scripted-io.ts'
import { ensureDebianPackage } from './ensure-package.ts'
import { PAGES } from './snapshots/pages.ts'

/** Appended to each pattern page: the form's values as JSON, and a typeahead for ARIA comboboxes. */
const STATE = `<output id="state"></output><script>
const show = () => {
  const state = {}
  for (const el of document.querySelectorAll('input, select, textarea')) {
    const key = el.name || el.id || el.getAttribute('aria-labelledby')
    if (!key) continue
    if (el.type === 'radio') { if (el.checked) state[key] = el.value }
    else if (el.type === 'checkbox') state[key] = el.checked
    else state[key] = el.value
  }
  document.getElementById('state').textContent = JSON.stringify(state)
}
// Like most typeahead widgets: the options exist only while the list is open, filtered by the text.
for (const box of document.querySelectorAll('input[role=combobox]')) {
  const list = document.getElementById(box.getAttribute('aria-controls'))
  const names = Array.from(list.children, (o) => o.textContent)
  list.replaceChildren()
  box.addEventListener('input', () => {
    list.hidden = false
    box.setAttribute('aria-expanded', 'true')
    list.replaceChildren(...names.filter((n) => n.toLowerCase().includes(box.value.toLowerCase())).map((n) => {
      const o = document.createElement('li')
      o.setAttribute('role', 'option')
      o.textContent = n
      o.addEventListener('click', () => { box.value = n; list.hidden = true; list.replaceChildren(); show() })
      return o
    }))
  })
}
document.addEventListener('input', show, true)
document.addEventListener('change', show, true)
show()
</script>`

let dir: string
let fossil: ReturnType<typeof Bun.spawn>
let fossilUrl: string
let patterns: ReturnType<typeof Bun.serve>
let driver: BrowserDriver

beforeAll(async () => {
  await ensureDebianPackage('/usr/bin/fossil', 'fossil')
  dir = mkdtempSync(join(tmpdir(), 'live-values-'))
  const repo = join(dir, 'repo.fossil')
  const env = { ...process.env, USER: 'tester' }
  const init = Bun.spawnSync(['fossil', 'init', '--admin-user', 'admin', repo], { env })
  if (init.exitCode !== 0) throw new Error(`fossil init failed: ${init.stderr.toString()}`)
  const port = 20_000 + Math.floor(Math.random() * 30_000)
  fossil = Bun.spawn(['fossil', 'server', '--port', String(port), '--localhost', '--localauth', repo], {
    env,
    stdout: 'ignore',
    stderr: 'ignore',
  })
  fossilUrl = `http://127.0.0.1:${port}`
  patterns = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const html = PAGES[new URL(request.url).pathname.slice(1)]
      return html
        ? new Response(html.replace('</body>', `${STATE}</body>`), {
            headers: { 'content-type': 'text/html' },
          })
        : new Response('not found', { status: 404 })
    },
  })
  driver = new BrowserDriver()
  await driver.start()
  const deadline = Date.now() + 10_000
  while (
    !(await fetch(fossilUrl).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('fossil did not start')
    await Bun.sleep(50)
  }
}, 180_000)

afterAll(async () => {
  await driver?.stop()
  fossil?.kill()
  await fossil?.exited
  await patterns?.stop(true)
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const noDesktop = new Proxy({} as DesktopPort, {
  get(_, key) {
    if (key === 'name') return 'none'
    throw new Error(`mapping touched the desktop (${String(key)})`)
  },
})

/** Maps the sample onto the live page and returns the automation: open, fill, then `reads`. */
async function teach(url: string, sample: Record<string, unknown>, replies: Reply[], reads: Step[]) {
  const window = await driver.launch({ url })
  const { root } = await driver.snapshot(window.id)
  const transcript = scriptedIO(replies)
  const request: BuildRequest = { prompt: '', sample: { id: 's', input: sample }, previous: [] }
  const fields = await mapFields(
    new BuildSession(noDesktop, transcript.io, request),
    root,
    inputLeaves(sample),
  )
  const automation: Automation = {
    version: 1,
    app: { url },
    mainScenario: 'filled',
    steps: [{ kind: 'launch', name: 'Open the app' }, ...fields.map((f) => f.step), ...reads],
    scenarios: [],
  }
  return { automation, transcript }
}

const readState: Step = {
  kind: 'read',
  name: 'Read the form’s state',
  target: { fingerprints: [{ by: 'automationId', ids: ['state'] }] },
  into: 'state',
}

async function stateAfter(automation: Automation, input: Record<string, unknown>) {
  const run = await runAutomation(driver, automation, input)
  if (run.status !== 'succeeded') throw new Error(`run ${run.status}: ${JSON.stringify(run.error)}`)
  return JSON.parse(String(run.result.state)) as Record<string, unknown>
}

describe('composite controls, run for real', () => {
  test('native date, yes/no radios, checkbox and an accent-free country: the sample and a live call', async () => {
    const url = `${patterns.url}profile-form`
    const sample = {
      fullname: 'Ann Lee',
      born: '1990-04-01',
      newsletter: false,
      terms: true,
      country: 'osterreich',
    }
    const { automation, transcript } = await teach(url, sample, [], [readState])
    expect(transcript.questions).toEqual([])
    expect(await stateAfter(automation, sample)).toMatchObject({
      fullname: 'Ann Lee',
      born: '1990-04-01',
      news: '0',
      terms: true,
      country: 'at',
    })
    const live = {
      fullname: 'Bo',
      born: '2001-12-31T09:00:00Z',
      newsletter: 'yes',
      terms: 'no',
      country: 'FRANCE',
    }
    expect(await stateAfter(automation, live)).toMatchObject({
      born: '2001-12-31',
      news: '1',
      terms: false,
      country: 'fr',
    })
  }, 30_000)

  test('day/month/year lists and DD/MM/YYYY boxes get each part in the app’s format', async () => {
    const url = `${patterns.url}date-parts`
    const sample = { visitor: 'Ann', visit: '2024-03-05', expiry: '2027-01-09' }
    const { automation } = await teach(url, sample, [], [readState])
    expect(await stateAfter(automation, sample)).toMatchObject({
      visit_day: '5',
      visit_month: '3',
      visit_year: '2024',
      exp_dd: '09',
      exp_mm: '01',
      exp_yyyy: '2027',
    })
    expect(
      await stateAfter(automation, { visitor: 'Bo', visit: '2025-12-31', expiry: '2030-10-20' }),
    ).toMatchObject({
      visit_day: '31',
      visit_month: '12',
      visit_year: '2025',
      exp_dd: '20',
      exp_mm: '10',
    })
  }, 30_000)

  test('a date picker box gets its placeholder’s format; q goes into the search box; the ARIA combobox is typed into', async () => {
    const orders = `${patterns.url}picker-and-search`
    const sample = { q: 'widgets', customer: 'Ann', deliveryDate: '2024-12-24', replyTo: 'ann@example.com' }
    const { automation } = await teach(orders, sample, [], [readState])
    expect(await stateAfter(automation, sample)).toMatchObject({
      q: 'widgets',
      c1: 'Ann',
      dp: '24/12/2024',
    })
    const work = `${patterns.url}combobox-and-grid`
    const assign = await teach(
      work,
      { assignee: 'grace hopper', hours: 3, due: '2025-02-01' },
      [],
      [readState],
    )
    expect(
      await stateAfter(assign.automation, { assignee: 'ada lovelace', hours: 5, due: '2025-03-02' }),
    ).toMatchObject({
      'assignee-label': 'Ada Lovelace',
      h1: '5',
      d1: '2025-03-02',
    })
  }, 30_000)
})

describe('options by meaning on fossil, run for real', () => {
  test('“defect” picks Code_Defect; an answered “bug” picks it on live calls too', async () => {
    const url = `${fossilUrl}/tktnew`
    const readType: Step = {
      kind: 'read',
      name: 'Read the type',
      target: { fingerprints: [{ by: 'automationId', ids: ['type'] }] },
      into: 'type',
    }
    const readSeverity: Step = {
      kind: 'read',
      name: 'Read the severity',
      target: { fingerprints: [{ by: 'automationId', ids: ['severity'] }] },
      into: 'severity',
    }
    const sample = { title: 'Crash on save', type: 'defect', severity: 'minor' }
    const { automation, transcript } = await teach(url, sample, [], [readType, readSeverity])
    expect(transcript.questions).toEqual([])
    const run = await runAutomation(driver, automation, sample)
    expect(run.result).toMatchObject({ type: 'Code_Defect', severity: 'Minor' })
    const live = await runAutomation(driver, automation, {
      title: 'Slow',
      type: 'Defect',
      severity: 'CRITICAL',
    })
    expect(live.result).toMatchObject({ type: 'Code_Defect', severity: 'Critical' })

    const asked = await teach(
      url,
      { title: 'Crash', type: 'bug' },
      [{ kind: 'map_option', answer: optionLabelled('Code_Defect') }],
      [readType],
    )
    expect(asked.transcript.questions.map((q) => q.question.kind)).toEqual(['map_option'])
    const again = await runAutomation(driver, asked.automation, { title: 'Hang', type: 'BUG' })
    expect(again.result).toMatchObject({ type: 'Code_Defect' })
  }, 30_000)
})
