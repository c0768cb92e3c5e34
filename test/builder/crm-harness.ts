// Shared by the CRM builder tests: one Chromium with the fixture CRM open for the whole file, and
// the build call that fails the test on an unexpected question. The CRM keeps its data on the
// fixture server for the whole file too: a customer created by one test is there for the next.
import { afterAll, beforeAll, expect } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import type { BuildRequest, BuildResult } from '../../src/builder/contract.ts'
import { buildAutomation } from '../../src/builder/index.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { scriptedIO } from './scripted-io.ts'

export const CREATE_PROMPT = 'Create a customer in the CRM and return its id'
export const EXPECT_ID = { customerId: { $type: 'string' } }
export const katherine = {
  firstName: 'Katherine',
  lastName: 'Johnson',
  email: 'katherine@example.com',
  country: 'Germany',
  vip: true,
}

export function succeeded(result: BuildResult): Extract<BuildResult, { ok: true }> {
  if (!result.ok) throw new Error(`build failed: ${result.code}: ${result.message}`)
  return result
}

/** Registers the file's beforeAll/afterAll; `driver()` is the browser once they ran. */
export function crmBrowser() {
  let fixtures: FixtureServer | undefined
  let driver: BrowserDriver | undefined
  beforeAll(async () => {
    fixtures = await startFixtureServer()
    driver = new BrowserDriver()
    await driver.start()
    await driver.launch({ url: `${fixtures.url}/crm/` })
  })
  afterAll(async () => {
    await driver?.stop()
    await fixtures?.stop()
  })
  const current = () => driver!
  return {
    driver: current,
    /** Where the fixture apps are served (`${url}/crm/`). */
    url: () => fixtures!.url,
    /** The fixture server, whose store says what the builds and runs really created. */
    fixtures: () => fixtures!,
    async build(request: BuildRequest, script = scriptedIO()) {
      const result = await buildAutomation(localDesktop(current()), script.io, request)
      if (process.env.BUILDER_TRANSCRIPT) console.log(script.lines.join('\n'))
      expect(script.unexpected).toEqual([])
      return { result: succeeded(result), script }
    },
  }
}
