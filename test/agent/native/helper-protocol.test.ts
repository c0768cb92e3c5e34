import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { installAtspiHelper } from '../../../src/agent/drivers/linux/index.ts'
import { HelperHost } from '../../../src/agent/drivers/native/helper-host.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import { HELPER_PROTOCOL_VERSION } from '../../../src/protocol/helper.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/** The real AT-SPI helper, supervised by the real host, on a real headless desktop. */
const native = useNativeDesktop()
const state = tempDir('deskhook-helper-')
/** The helper as the agent installs it: `[python, -B, -u, <state>/helpers/atspi/atspi-helper.py]`. */
const HELPER = installAtspiHelper(state.path)
afterAll(() => state.remove())

function capturedLog() {
  const lines: Record<string, unknown>[] = []
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      return true
    },
  } as unknown as NodeJS.WritableStream
  return { log: createLogger({ level: 'debug', format: 'json', destination }), lines }
}

function host(options: { command?: string[]; protocolVersion?: number; callTimeoutMs?: number } = {}) {
  const { log, lines } = capturedLog()
  const helper = new HelperHost({
    command: options.command ?? HELPER,
    env: native.desktop.env,
    log,
    protocolVersion: options.protocolVersion,
    callTimeoutMs: options.callTimeoutMs,
  })
  return { helper, lines }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function failure(promise: Promise<unknown>): Promise<DriverError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DriverError)
    return error as DriverError
  }
  throw new Error('expected the call to fail')
}

describe('the helper protocol, against the real AT-SPI helper', () => {
  test('hello first: the helper says its protocol and backend, then answers calls', async () => {
    const { helper } = host()
    try {
      const hello = await helper.start()
      expect(hello).toMatchObject({ protocol: HELPER_PROTOCOL_VERSION, backend: 'atspi', platform: 'linux' })
      expect(hello.pid).toBe(helper.pid!)
      const { windows } = await helper.call('listWindows', {})
      expect(Array.isArray(windows)).toBe(true)
    } finally {
      await helper.stop()
    }
  }, 30_000)

  test('an agent of another protocol version is refused with a clear error, and no helper is left', async () => {
    const { helper } = host({ protocolVersion: HELPER_PROTOCOL_VERSION + 1 })
    const error = await failure(helper.start())
    expect(error.code).toBe('PROTOCOL_ERROR')
    expect(error.message).toContain(`helper speaks protocol ${HELPER_PROTOCOL_VERSION}`)
    expect(error.message).toContain(`the agent ${HELPER_PROTOCOL_VERSION + 1}`)
    expect(helper.pid).toBeUndefined()
    await helper.stop()
  }, 30_000)

  test('lines on the helper stdout that are not responses are logged and ignored', async () => {
    // The real helper behind a shell that first writes two stray lines to the protocol channel.
    const command = ['/bin/sh', '-c', `echo 'not json'; echo '{"hello": 1}'; exec "$@"`, 'sh', ...HELPER]
    const { helper, lines } = host({ command })
    try {
      await helper.start()
      expect((await helper.call('listWindows', {})).windows).toBeDefined()
      const ignored = lines.filter((l) => String(l.msg).includes('(ignored)')).map((l) => l.line)
      expect(ignored).toEqual(['not json', '{"hello": 1}'])
    } finally {
      await helper.stop()
    }
  }, 30_000)

  test('a malformed request line gets a BAD_REQUEST answer and the helper goes on', async () => {
    const proc = Bun.spawn(HELPER, {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      env: native.desktop.env,
    })
    proc.stdin.write('this is not json\n{"cmd": "hello"}\n')
    proc.stdin.write(`{"id": "1", "cmd": "hello", "args": {"protocol": ${HELPER_PROTOCOL_VERSION}}}\n`)
    proc.stdin.end()
    const out = (await new Response(proc.stdout).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(out[0]).toEqual({
      id: null,
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'not a JSON line' },
    })
    expect(out[1]).toMatchObject({ id: null, ok: false, error: { code: 'BAD_REQUEST' } })
    expect(out[2]).toMatchObject({ id: '1', ok: true, result: { protocol: HELPER_PROTOCOL_VERSION } })
    // stdin closed: the helper ends by itself.
    expect(await proc.exited).toBe(0)
    expect(await new Response(proc.stderr).text()).toContain('malformed request line')
  }, 30_000)

  test('an unknown command is a PROTOCOL_ERROR naming it; the helper keeps serving', async () => {
    const { helper } = host()
    try {
      const error = await failure(helper.request('frobnicate', {}))
      expect(error.code).toBe('PROTOCOL_ERROR')
      expect(error.message).toBe('UNKNOWN_COMMAND: Unknown command "frobnicate"')
      const missing = await failure(helper.request('snapshot', {}))
      expect(missing.message).toContain('BAD_REQUEST')
      expect((await helper.call('listWindows', {})).windows).toBeDefined()
    } finally {
      await helper.stop()
    }
  }, 30_000)

  test('a call past its deadline fails HELPER_TIMEOUT; the hung helper is killed and a new one answers', async () => {
    const { helper, lines } = host()
    try {
      await helper.start()
      const hungPid = helper.pid!
      // A helper that stops answering (stopped by a signal: as stuck as a helper can be).
      process.kill(hungPid, 'SIGSTOP')
      const started = performance.now()
      const error = await failure(helper.call('listWindows', {}, { timeoutMs: 800 }))
      expect(error.code).toBe('HELPER_TIMEOUT')
      expect(error.message).toContain('listWindows')
      expect(performance.now() - started).toBeLessThan(5_000)
      // The very next call goes to a new helper, without waiting for the old one to be gone.
      expect((await helper.call('listWindows', {})).windows).toBeDefined()
      await eventually(async () => !running(hungPid), 5_000)
      expect(helper.pid).not.toBe(hungPid)
      expect(helper.instance).toBe(2)
      expect(lines.some((l) => l.msg === 'native helper hung: killing it')).toBe(true)
    } finally {
      await helper.stop()
    }
  }, 30_000)

  test('a helper killed during a call fails it HELPER_CRASHED; the next call is served by a new helper', async () => {
    const { helper, lines } = host()
    try {
      const launched = await helper.call(
        'launch',
        { executable: 'yad', args: ['--form', '--title=Waiting', '--field=Name'], timeoutMs: 20_000 },
        { timeoutMs: 25_000 },
      )
      const firstPid = helper.pid!
      // A new window may still be drawing (slowly on a busy machine), and a change would answer the
      // wait below before the helper is killed: let it settle first.
      for (let i = 0; i < 20; i++) {
        const quiet = await helper.call('waitForChange', { windowId: launched.window.id, timeoutMs: 300 })
        if (quiet.result === 'timeout') break
      }
      const waiting = helper.call(
        'waitForChange',
        { windowId: launched.window.id, timeoutMs: 20_000 },
        { timeoutMs: 25_000 },
      )
      // Killed once the request is on its way (written to the helper's stdin).
      await eventually(async () => helper.inFlight === 1)
      process.kill(firstPid, 'SIGKILL')
      const error = await failure(waiting)
      expect(error.code).toBe('HELPER_CRASHED')
      expect(error.message).toContain('signal SIGKILL')
      // The app outlives its helper (its own session), and the new helper sees its window.
      const { windows } = await helper.call('listWindows', {})
      expect(helper.pid).not.toBe(firstPid)
      expect(windows.map((w) => w.title)).toContain('Waiting')
      expect(lines.some((l) => l.msg === 'native helper exited unexpectedly')).toBe(true)
      expect(lines.some((l) => l.msg === 'helper: app started')).toBe(true)
      const closed = await helper.call('close', { pids: [launched.pid] })
      expect(closed.closed + closed.killed).toBe(1)
    } finally {
      await helper.stop()
    }
  }, 60_000)

  test('an app that stops answering fails the call TIMEOUT within seconds; the helper stays up', async () => {
    const { helper } = host()
    try {
      const { window, pid } = await helper.call(
        'launch',
        { executable: 'yad', args: ['--form', '--title=Frozen', '--field=Name'], timeoutMs: 20_000 },
        { timeoutMs: 25_000 },
      )
      await helper.call('snapshot', { windowId: window.id, maxElements: 500 })
      const helperPid = helper.pid
      process.kill(pid, 'SIGSTOP')
      try {
        const started = performance.now()
        const error = await failure(helper.call('snapshot', { windowId: window.id, maxElements: 500 }))
        expect(error.code).toBe('TIMEOUT')
        expect(error.message).toContain('does not answer')
        expect(performance.now() - started).toBeLessThan(12_000)
        expect(helper.pid).toBe(helperPid!)
      } finally {
        process.kill(pid, 'SIGCONT')
      }
      const thawed = await helper.call('snapshot', { windowId: window.id, maxElements: 500 })
      expect(thawed.window.title).toBe('Frozen')
      await helper.call('close', { pids: [pid] })
    } finally {
      await helper.stop()
    }
  }, 60_000)

  test('close asks the windows first: an app that saves when closed keeps its work; one that refuses is ended after a grace', async () => {
    const { helper } = host()
    const files = tempDir('deskhook-close-')
    const app = join(import.meta.dir, '../../fixtures/native/close-app.py')
    try {
      const saved = join(files.path, 'saved.txt')
      const polite = await helper.call(
        'launch',
        {
          executable: '/usr/bin/python3',
          args: [app, saved, 'save'],
          titleContains: 'Close test',
          timeoutMs: 20_000,
        },
        { timeoutMs: 25_000 },
      )
      const closed = await helper.call('close', { pids: [polite.pid] })
      expect(closed).toEqual({ closed: 1, killed: 0, ended: 0, staleLocks: [], pids: [polite.pid] })
      // Closed as a person closes it: its own handler ran (SIGTERM would have ended it unsaved).
      expect(readFileSync(saved, 'utf8')).toBe('saved')
      expect(running(polite.pid)).toBe(false)

      const refusing = await helper.call(
        'launch',
        {
          executable: '/usr/bin/python3',
          args: [app, join(files.path, 'never.txt'), 'refuse'],
          timeoutMs: 20_000,
        },
        { timeoutMs: 25_000 },
      )
      const ended = await helper.call('close', { pids: [refusing.pid] }, { timeoutMs: 15_000 })
      expect(ended.closed + ended.killed).toBe(1)
      expect(running(refusing.pid)).toBe(false)
      expect(existsSync(join(files.path, 'never.txt'))).toBe(false)
      expect(ended).toMatchObject({ ended: 1, staleLocks: [], pids: [refusing.pid] })

      // An app holding its document with a lock file beside it: ended by force, its lock is
      // reported and left where it is (it may be another person's; the app asks about it).
      const document = join(files.path, 'books.dat')
      const locked = await helper.call(
        'launch',
        { executable: '/usr/bin/python3', args: [app, document, 'locked'], timeoutMs: 20_000 },
        { timeoutMs: 25_000 },
      )
      const forced = await helper.call('close', { pids: [locked.pid] }, { timeoutMs: 15_000 })
      expect(forced).toMatchObject({ ended: 1, staleLocks: [`${document}.LCK`] })
      expect(existsSync(`${document}.LCK`)).toBe(true)
    } finally {
      await helper.stop()
      files.remove()
    }
  }, 60_000)

  test('stop() ends the helper: its process is gone and calls fail DISCONNECTED', async () => {
    const { helper } = host()
    await helper.start()
    const pid = helper.pid!
    await helper.stop()
    expect(running(pid)).toBe(false)
    expect((await failure(helper.call('listWindows', {}))).code).toBe('DISCONNECTED')
  }, 30_000)
})
