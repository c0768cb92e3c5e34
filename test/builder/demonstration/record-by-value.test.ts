// A demonstration that opens the sample's own record, against real Chromium: the recorded click
// on "Issue #7", on the SKU's link, on the product name in the SKU's row, on the row reading
// "Printer broken — New" must open the live call's record next time, never the sample's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { renderSelector, resolveSelector } from '../../../src/automation/selectors.ts'
import type { BuildRequest } from '../../../src/builder/contract.ts'
import { readDemonstration } from '../../../src/builder/demonstrate/demonstration.ts'
import type { Step } from '../../../src/protocol/automation.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'
import { RecordingKit, targetIn } from './recording-kit.ts'

const html = (title: string, body: string) =>
  new Response(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, {
    headers: { 'content-type': 'text/html; charset=utf-8' },
  })

const ISSUES = [7, 17, 70]
const PRODUCTS = [
  ['WX-100', 'Widget'],
  ['WX-200', 'Gadget'],
  ['WX-1000', 'Gizmo'],
]
const TICKETS = [
  ['Printer broken', 'New'],
  ['Scanner jammed', 'Open'],
  ['Printer broken again', 'Closed'],
]

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base: string

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url)
      if (pathname === '/issues')
        return html(
          'Issues',
          `<h1>Issues</h1><ul>${ISSUES.map((n) => `<li><a href="/issues/${n}">Issue #${n}</a></li>`).join('')}</ul>`,
        )
      if (pathname === '/products')
        return html(
          'Products',
          `<h1>Products</h1><table><thead><tr><th>SKU</th><th>Name</th><th>Actions</th></tr></thead><tbody>${PRODUCTS.map(
            ([sku, name]) =>
              `<tr><td><a href="/products/${sku}">${sku}</a></td><td><a href="/products/${sku}/about">${name}</a></td><td><button type="button" onclick="location.href='/products/${sku}/edit'">Edit</button></td></tr>`,
          ).join('')}</tbody></table>`,
        )
      if (pathname === '/tickets')
        return html(
          'Tickets',
          `<h1>Tickets</h1><ul>${TICKETS.map(
            ([subject, state]) =>
              `<li><a href="/tickets/${encodeURIComponent(subject!)}">${subject} — ${state}</a></li>`,
          ).join('')}</ul>`,
        )
      return html(decodeURIComponent(pathname), `<h1>${decodeURIComponent(pathname)}</h1>`)
    },
  })
  base = `http://127.0.0.1:${server.port}`
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

const request = (prompt: string, input: Record<string, unknown>): BuildRequest => ({
  prompt,
  sample: { id: 's1', input },
  previous: [],
})

/** The list, and the record the click opened: the two screens of a one-click demonstration. */
async function screens(path: string): Promise<{ windowId: string; list: Snapshot }> {
  const { id } = await driver.launch({ url: `${base}${path}` })
  return { windowId: id, list: await driver.snapshot(id) }
}

/** Where the step's selector leads on the real page for another input: the page it opens. */
async function opens(path: string, step: Step, input: Record<string, unknown>): Promise<string> {
  if (step.kind !== 'click') throw new Error(`a ${step.kind} step, not a click`)
  const { windowId, list } = await screens(path)
  const found = resolveSelector(list.root, renderSelector(step.target, input))
  if (found.status !== 'found') throw new Error(`${found.status}: ${JSON.stringify(step.target)}`)
  await driver.act(windowId, { kind: 'click', ref: found.element.ref })
  const after = await driver.snapshot(windowId)
  return decodeURIComponent(new URL(after.window.url!).pathname)
}

async function demonstrated(
  path: string,
  input: Record<string, unknown>,
  click: (kit: RecordingKit) => void,
) {
  const { list } = await screens(path)
  const kit = new RecordingKit([list, list])
  click(kit)
  const demo = readDemonstration(kit.recording(), request('Open the record', input))
  return demo
}

/** What a run looks for, without the step's name and description (words for people). */
function targetOf(step: Step) {
  if (step.kind !== 'click') throw new Error(`a ${step.kind} step, not a click`)
  return { fingerprints: step.target.fingerprints }
}

describe('a demonstration that opened the sample’s record', () => {
  test('a link named after the number: “Issue #{{number}}”, never #7, #17 and #70 told apart', async () => {
    const demo = await demonstrated('/issues', { number: 7 }, (kit) => kit.click(0, 'link', 'Issue #7'))
    expect(demo.submit).toMatchObject({
      kind: 'click',
      target: { fingerprints: [{ by: 'role', role: 'link', name: 'Issue #{{number}}', match: 'exact' }] },
    })
    expect(demo.notes.map((n) => n.message)).toContain(
      '“Issue #7” shows the sample’s number: each run picks the link showing its own',
    )
    expect(await opens('/issues', demo.submit, { number: 17 })).toBe('/issues/17')
    expect(await opens('/issues', demo.submit, { number: 70 })).toBe('/issues/70')
  }, 60_000)

  test('the SKU’s own link in its row: the row and the link show the live call’s SKU', async () => {
    const demo = await demonstrated('/products', { sku: 'WX-100', quantity: 1 }, (kit) =>
      kit.click(0, 'link', 'WX-100'),
    )
    expect(JSON.stringify(targetOf(demo.submit))).not.toContain('WX-100')
    expect(await opens('/products', demo.submit, { sku: 'WX-200', quantity: 1 })).toBe('/products/WX-200')
    expect(await opens('/products', demo.submit, { sku: 'WX-1000', quantity: 1 })).toBe('/products/WX-1000')
  }, 60_000)

  test('the product’s name in the SKU’s row: the Name column of the live call’s row, not “Widget”', async () => {
    const demo = await demonstrated('/products', { sku: 'WX-100' }, (kit) => kit.click(0, 'link', 'Widget'))
    expect(JSON.stringify(targetOf(demo.submit))).not.toContain('Widget')
    expect(await opens('/products', demo.submit, { sku: 'WX-200' })).toBe('/products/WX-200/about')
    // The button every row has keeps its name; the row is the live call's.
    const edit = await demonstrated('/products', { sku: 'WX-100' }, (kit) => {
      const row = targetIn(kit.snapshots[0]!, 'link', 'WX-100').point!
      kit.click(
        0,
        'button',
        (e) => e.name === 'Edit' && Math.abs(e.bounds!.y + e.bounds!.height / 2 - row.y) < 8,
      )
    })
    expect(edit.submit).toMatchObject({
      target: { fingerprints: [{ by: 'inRow', rowText: '{{sku}}', name: 'Edit' }] },
    })
    expect(await opens('/products', edit.submit, { sku: 'WX-1000' })).toBe('/products/WX-1000/edit')
  }, 60_000)

  test('a row reading “Printer broken — New” for the subject: “{{subject}} — New”, else any row showing the subject', async () => {
    const demo = await demonstrated('/tickets', { subject: 'Printer broken' }, (kit) =>
      kit.click(0, 'link', 'Printer broken — New'),
    )
    expect(demo.submit).toMatchObject({
      target: {
        fingerprints: [
          { by: 'inRow', rowText: '{{subject}}', name: '{{subject}} — New', match: 'exact' },
          { by: 'inRow', rowText: '{{subject}}', name: '{{subject}}', match: 'contains' },
        ],
      },
    })
    expect(await opens('/tickets', demo.submit, { subject: 'Scanner jammed' })).toBe(
      '/tickets/Scanner jammed',
    )
    expect(await opens('/tickets', demo.submit, { subject: 'Printer broken' })).toBe(
      '/tickets/Printer broken',
    )
  }, 60_000)

  test('a short value that is no identifier stays literal: quantity 1 is not the “1” of a name', async () => {
    const demo = await demonstrated('/issues', { quantity: 1 }, (kit) => kit.click(0, 'link', 'Issue #17'))
    expect(targetOf(demo.submit).fingerprints[0]).toMatchObject({ by: 'role', name: 'Issue #17' })
  }, 60_000)
})
