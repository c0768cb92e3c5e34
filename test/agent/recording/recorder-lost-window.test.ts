// The Recorder when its window or driver goes away mid-recording: waitForChange then fails at
// once, and a loop that retried at once would spin on microtasks, starving the agent's timers
// (heartbeats included) for good. A fake driver stands in here: the failure is the driver's.
import { expect, test } from 'bun:test'
import { Recorder } from '../../../src/agent/recorder.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import { type Driver, DriverError } from '../../../src/protocol/driver.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'

test('a window that cannot be watched any more: the recorder waits between tries, and still stops', async () => {
  const window = { id: 'w1', title: 'Gone soon', app: 'test' }
  let waits = 0
  const driver = {
    kind: 'browser',
    listWindows: async () => [window],
    snapshot: async () =>
      ({ window, root: { ref: 'e0', role: 'window', name: '', children: [] } }) as unknown as Snapshot,
    watchInput: async () => async () => {},
    waitForChange: async () => {
      waits++
      throw new DriverError('WINDOW_NOT_FOUND', 'the window was closed')
    },
    screenshot: async () => {
      throw new DriverError('WINDOW_NOT_FOUND', 'the window was closed')
    },
  } as unknown as Driver
  const lines: string[] = []
  const log = createLogger({
    level: 'debug',
    format: 'json',
    destination: { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream,
  })
  const recorder = new Recorder(driver, log)
  await recorder.recordStart('w1')
  // A timer fires only if the loop yields to the event loop (a spinning loop never lets it).
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(waits).toBeLessThanOrEqual(2)
  expect(lines.filter((l) => l.includes('the recorded window cannot be watched'))).toHaveLength(1)
  const recording = await recorder.recordStop()
  expect(recording.actions).toEqual([])
  expect(recorder.recording).toBe(false)
}, 10_000)
