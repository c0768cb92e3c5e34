// For a test file that serves its own pages to real Chromium: one loopback server answering with
// `fetch`, and one BrowserDriver, started before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

export interface PageRig {
  server: ReturnType<typeof Bun.serve>
  driver: BrowserDriver
}

export function pageRig(fetch: (request: Request) => Response | Promise<Response>): PageRig {
  const rig = {} as PageRig
  beforeAll(async () => {
    rig.server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch })
    rig.driver = new BrowserDriver()
    await rig.driver.start()
  })
  afterAll(async () => {
    await rig.driver?.stop()
    await rig.server?.stop(true)
  })
  return rig
}

/** An HTML page as a response. */
export const htmlPage = (html: string) =>
  new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })

export const flatten = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flatten)]

/** The window's elements once `ready` holds of them (a page's scripts and frames load after launch). */
export async function elementsWhen(
  driver: BrowserDriver,
  windowId: string,
  ready: (all: UiElement[]) => boolean,
): Promise<UiElement[]> {
  let all: UiElement[] = []
  for (let i = 0; i < 30 && !ready(all); i++) {
    await driver.waitForChange(windowId, 100).catch(() => undefined)
    all = flatten((await driver.snapshot(windowId)).root)
  }
  return all
}
