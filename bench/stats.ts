export interface Latency {
  n: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  maxMs: number
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export function summarize(samplesMs: number[]): Latency {
  const sorted = [...samplesMs].sort((a, b) => a - b)
  const sum = sorted.reduce((a, b) => a + b, 0)
  return {
    n: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length ? sum / sorted.length : Number.NaN,
    maxMs: sorted.at(-1) ?? Number.NaN,
  }
}
