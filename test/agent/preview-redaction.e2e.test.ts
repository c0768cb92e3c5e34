// The live preview never shows a password field: a real server, a real `deskhook agent` process
// with Chromium on a page with password fields (filled red, blue in a shadow root, magenta in a
// frame), and the frames the hub receives. Every frame has them blacked out; the rest of the page
// (the green user name field) shows as it is.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { countPixels, isBlue, isGreen, isMagenta, isRed } from '../helpers/jpeg-pixels.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

const PAGE = join(import.meta.dir, 'pages', 'password.html')

let app: ReturnType<typeof Bun.serve>
let s: TestServer
let agent: AgentProcess
let desktopId: string

beforeAll(async () => {
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async () =>
      new Response(await Bun.file(PAGE).text(), { headers: { 'content-type': 'text/html' } }),
  })
  s = await startTestServer({ heartbeatIntervalMs: 1000, agentGraceMs: 5000 })
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'sign-in-desk',
    startUrl: `http://127.0.0.1:${app.port}/`,
  })
  desktopId = String((await agent.waitForLog((l) => l.msg === 'online')).desktopId)
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  app?.stop(true)
})

test('every preview frame shows the password fields blacked out and the rest of the page', async () => {
  s.hub.startPreview(desktopId, 100)
  const frames: Uint8Array[] = []
  try {
    let last = 0
    await eventually(async () => {
      const frame = s.hub.latestPreview(desktopId)
      if (frame && frame.at !== last) {
        last = frame.at
        frames.push(frame.jpeg)
      }
      return frames.length >= 3
    }, 30_000)
  } finally {
    s.hub.stopPreview(desktopId)
  }
  for (const jpeg of frames) {
    for (const secret of [isRed, isBlue, isMagenta]) expect(countPixels(jpeg, secret)).toBe(0)
    expect(countPixels(jpeg, isGreen)).toBeGreaterThan(5_000) // the user name field: 240×40
  }
}, 60_000)
