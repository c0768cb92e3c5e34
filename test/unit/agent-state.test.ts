import { afterAll, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { backoffDelay } from '../../src/agent/backoff.ts'
import { StateStore } from '../../src/agent/state-store.ts'
import type { RunResult } from '../../src/protocol/messages.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const dir = tempDir('deskhook-agent-state-')
afterAll(() => dir.remove())

test('backoff grows exponentially, is capped, and is jittered over the whole window', () => {
  expect(backoffDelay(0, 500, 30_000, () => 1)).toBe(500)
  expect(backoffDelay(3, 500, 30_000, () => 1)).toBe(4000)
  expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000)
  expect(backoffDelay(5, 500, 30_000, () => 0)).toBe(0)
  expect(backoffDelay(5, 500, 30_000, () => 0.5)).toBe(8000)
})

test('the credential is owner-only and bound to its server', () => {
  const store = new StateStore(dir.path)
  store.saveCredential({ server: 'http://a:8080', desktopId: 'd1', secret: 'dhd_x', name: 'pc' })
  expect(statSync(join(dir.path, 'credential.json')).mode & 0o777).toBe(0o600)
  expect(statSync(dir.path).mode & 0o777).toBe(0o700)
  expect(store.loadCredential('http://a:8080/')?.desktopId).toBe('d1')
  expect(store.loadCredential('http://b:8080')).toBeNull()
})

test('journaled results survive a new store and go away when acknowledged', () => {
  const result = (runId: string): RunResult => ({
    type: 'run.result',
    runId,
    lease: 'l',
    outcome: {
      status: 'succeeded',
      scenario: 'main',
      outcome: 'success',
      result: {},
      startedAt: '',
      finishedAt: '',
    },
  })
  new StateStore(dir.path).journal(result('r1'))
  new StateStore(dir.path).journal(result('r2'))
  const reopened = new StateStore(dir.path)
  expect(reopened.pending().map((r) => r.runId)).toEqual(['r1', 'r2'])
  reopened.acknowledge('r1')
  expect(new StateStore(dir.path).pending().map((r) => r.runId)).toEqual(['r2'])
})
