import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * Event-loop lag: the worst delay of the last 5–10 s. Bun (1.4) implements `monitorEventLoopDelay`
 * (a native timer and histogram, recording lateness beyond its resolution); it is one histogram per
 * process in Bun, so nothing else here may reset it. Where it is missing, a plain timer measures
 * how late it fires. Either way one timer per window rolls the value over; both end on `signal`.
 */
export function watchEventLoopLag(signal: AbortSignal, windowMs = 5_000): { lagSeconds(): number } {
  if (signal.aborted) return { lagSeconds: () => 0 }
  const source = nativeSource() ?? timerSource()
  let previous = 0
  const roll = setInterval(() => {
    previous = source.worstMs()
    source.reset()
  }, windowMs)
  // Never the reason a process stays alive.
  roll.unref()
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(roll)
      source.stop()
    },
    { once: true },
  )
  return { lagSeconds: () => Math.max(previous, source.worstMs()) / 1000 }
}

interface LagSource {
  worstMs(): number
  reset(): void
  stop(): void
}

/** Bun hands every caller the same histogram: shared, and disabled when its last user stops. */
let native: { histogram: ReturnType<typeof monitorEventLoopDelay>; users: number } | undefined

function nativeSource(): LagSource | undefined {
  try {
    if (typeof monitorEventLoopDelay !== 'function') return undefined
    native ??= { histogram: monitorEventLoopDelay({ resolution: 20 }), users: 0 }
    const shared = native
    if (shared.users++ === 0) shared.histogram.enable()
    return {
      // Nanoseconds; 0 until the first sample.
      worstMs: () => (shared.histogram.count ? shared.histogram.max / 1e6 : 0),
      reset: () => shared.histogram.reset(),
      stop: () => {
        if (--shared.users === 0) shared.histogram.disable()
      },
    }
  } catch {
    return undefined
  }
}

function timerSource(intervalMs = 100): LagSource {
  let worst = 0
  let expected = performance.now() + intervalMs
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - expected)
    expected = now + intervalMs
  }, intervalMs)
  timer.unref()
  return {
    worstMs: () => worst,
    reset: () => {
      worst = 0
    },
    stop: () => clearInterval(timer),
  }
}
