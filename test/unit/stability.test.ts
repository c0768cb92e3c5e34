import { expect, test } from 'bun:test'
import { stabilityScore } from '../../src/lib/stability-score.ts'

test.each([
  [{ passing: 0, total: 0, scenariosPassing: 0 }, 0],
  [{ passing: 1, total: 1, scenariosPassing: 1 }, 50],
  [{ passing: 2, total: 2, scenariosPassing: 2 }, 75],
  [{ passing: 3, total: 3, scenariosPassing: 3 }, 87.5],
  // A second sample of the same scenario adds less than a new scenario does.
  [{ passing: 2, total: 2, scenariosPassing: 1 }, 57.5],
  // A failing sample costs through the pass rate.
  [{ passing: 2, total: 3, scenariosPassing: 2 }, 50],
])('%o → %d', (input, score) => {
  expect(stabilityScore(input)).toBe(score)
})
