// Issue 21, item 4, over real Chromium: pages shaped like third-party apps' search results
// (collections-pages.ts) are snapshotted by the browser driver before and after the search; the
// builder picks the collection that holds the results (not the sidebar menu) and the read step
// gives the right objects, also when the runner executes it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { resolveSelector, runAutomation } from '../../../src/automation/index.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { appeared } from '../../../src/builder/observe/ui-diff.ts'
import { findCollections, rowsRead } from '../../../src/builder/outputs/collections.ts'
import type { OutputContext } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { articleCards, changeList, messageGrid, postTable } from './collections-pages.ts'

const PAGES: Record<string, (q: string) => string> = {
  '/admin/products/': changeList,
  '/posts': postTable,
  '/blog': articleCards,
  '/mail': messageGrid,
}

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base: string

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      const render = PAGES[url.pathname]
      if (!render) return new Response('not found', { status: 404 })
      return new Response(render(url.searchParams.get('q') ?? ''), {
        headers: { 'content-type': 'text/html' },
      })
    },
  })
  base = `http://127.0.0.1:${server.port}`
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  server?.stop(true)
})

/** The screens before and after searching `q` on `path`, as the builder sees them. */
async function searched(path: string, q: string): Promise<OutputContext> {
  const window = await driver.launch({ url: `${base}${path}` })
  const before = (await driver.snapshot(window.id)).root
  await driver.navigate(window.id, `${base}${path}?q=${encodeURIComponent(q)}`)
  const after = (await driver.snapshot(window.id)).root
  const ending = classifyEnding(before, after, [], [q]) ?? {
    kind: 'screen' as const,
    message: '',
    appeared: appeared(before, after),
    condition: { kind: 'appears' as const, target: { fingerprints: [] } },
    signature: '',
  }
  return {
    ending,
    after,
    inputs: [q],
    reading: readPrompt('Search and return the list'),
    submitLabel: 'Search',
  }
}

function read(
  ctx: OutputContext,
  step: ReturnType<typeof rowsRead>,
): { rows: unknown[]; element: UiElement } {
  if (!step?.target) throw new Error('no read step')
  const found = resolveSelector(ctx.after, step.target)
  if (found.status !== 'found') throw new Error(`the collection is ${found.status}`)
  const rows = readRows(found.element, step.columns, {
    parts: step.parts,
    cards: step.cards,
    pluck: step.pluck,
  })
  return { rows, element: found.element }
}

describe('collections on real pages', () => {
  test('an admin change-list: the results table, not the sidebar’s table of models; the checkbox column left out', async () => {
    const ctx = await searched('/admin/products/', 'widget')
    const step = rowsRead(ctx, 'products', { $type: 'array' })
    const { rows, element } = read(ctx, step)
    expect(element.automationId).toBe('result_list')
    expect(step?.columns).toEqual({ name: 'Name', sku: 'SKU', stock: 'Stock' })
    expect(rows).toEqual([
      { name: 'Widget', sku: 'W-1', stock: '3' },
      { name: 'Widget Pro', sku: 'W-2', stock: '0' },
    ])
    // The sidebar's table shows no result: it is never a candidate.
    expect(findCollections(ctx, 'products').map((c) => c.element.automationId)).toEqual(['result_list'])
  })

  test('a post table: a header row starting with a select-all cell; the example picks the title link, not its row actions', async () => {
    const ctx = await searched('/posts', 'printer')
    const step = rowsRead(ctx, 'posts', [{ title: 'Printer setup guide', author: 'editor' }])
    expect(step?.columns).toEqual({ author: 'Author' })
    expect(step?.parts).toEqual({ title: { cell: 2, role: 'link', nth: 1 } })
    expect(read(ctx, step).rows).toEqual([
      { title: 'Printer setup guide', author: 'editor' },
      { title: 'Printer troubleshooting', author: 'admin' },
    ])
  })

  test('article cards: titles, links and text of the results, not the sidebar’s recent posts', async () => {
    const ctx = await searched('/blog', 'printer')
    const step = rowsRead(ctx, 'posts', { $type: 'array' })
    expect(step?.cards).toEqual({ role: 'listitem' })
    expect(step?.target.description).toBe('the cards under “Search results for “printer””')
    expect(findCollections(ctx, 'posts')).toHaveLength(1)
    expect(read(ctx, step).rows).toEqual([
      { title: 'Printer tips', href: `${base}/blog/0`, text: 'Keep the tray full. Posted by Ada' },
      { title: 'Printer history', href: `${base}/blog/2`, text: 'From Gutenberg on. Posted by Ada' },
    ])
    // The runner reads the same step on the live page.
    const run = await runAutomation(
      driver,
      {
        version: 1,
        app: { url: `${base}/blog?q=printer` },
        steps: [{ kind: 'launch', name: 'Open' }, step!],
        scenarios: [],
      },
      {},
    )
    expect(run.error).toBeUndefined()
    expect(run.status).toBe('succeeded')
    expect((run.result as Record<string, unknown[]>).posts).toHaveLength(2)
  })

  test('a webmail grid without a header row: the example maps keys to cell positions; the folder tree is not a result', async () => {
    const ctx = await searched('/mail', 'printer')
    const step = rowsRead(ctx, 'messages', [{ from: 'Carol', subject: 'Printer on fire' }])
    expect(step?.parts).toEqual({ from: { cell: 2 }, subject: { cell: 3 } })
    expect(findCollections(ctx, 'messages').map((c) => c.element.name)).toEqual(['Message list'])
    expect(read(ctx, step).rows).toEqual([
      { from: 'Alice', subject: 'Printer broken' },
      { from: 'Carol', subject: 'Printer on fire' },
    ])
    expect(read(ctx, rowsRead(ctx, 'subjects', ['Printer broken'])).rows).toEqual([
      'Printer broken',
      'Printer on fire',
    ])
  })
})
