import { afterAll, afterEach } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { FakeRunner } from './fake-runner.ts'
import { tempDir } from './temp-dir.ts'
import { startTestServer, type TestServer } from './test-server.ts'

/**
 * Servers on one data dir that a test may stop and start again (a restart keeps everything), and a
 * fake desktop on the one started last. Whatever a test started is closed after it; the data dir
 * is removed after the file.
 */
export function restartableServer() {
  const dir = tempDir()
  let server: TestServer | undefined
  let desk: FakeRunner | undefined
  let key = ''
  afterEach(async () => {
    desk?.close()
    desk = undefined
    await server?.close()
    server = undefined
  })
  afterAll(() => dir.remove())
  return {
    /** The data dir every start uses. */
    dataDir: dir.path,
    /** The key the first start printed; later starts on the same data dir make none. */
    get key() {
      return key
    },
    async start(): Promise<TestServer> {
      server = await startTestServer({}, { dataDir: dir.path })
      key ||= server.key
      return server
    },
    /** A fake desktop enrolled on the server started last. */
    async connectDesk(): Promise<FakeRunner> {
      desk = await FakeRunner.connect(server!.url, { token: createEnrollmentToken(server!.ctx).token })
      return desk
    },
  }
}
