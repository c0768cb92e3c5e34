// A locked, disconnected or secure-desktop session is a passing state of the PC, not a broken
// step: a step that meets it (DESKTOP_LOCKED) waits for the session to come back, bounded by the
// run's own timeout, and is tried again; a run that times out waiting fails DESKTOP_LOCKED, saying
// how long it waited (docs/windows.md, "Locked and disconnected sessions").
import type { RunError } from '../protocol/automation.ts'
import type { RunContext } from './run-context.ts'

/**
 * Waits until the driver says the desktop can be reached again: true then; false when the run
 * ended first (cancelled or timed out), the driver cannot tell, or the state never passes by
 * itself (session 0). Asks every `recheckMs`.
 */
export async function untilDesktopBack(ctx: RunContext): Promise<boolean> {
  const { driver, signal } = ctx
  if (!driver.desktopState) return false
  for (;;) {
    if (signal?.aborted) return false
    let state: Awaited<ReturnType<NonNullable<typeof driver.desktopState>>>
    try {
      state = await driver.desktopState()
    } catch {
      return false
    }
    if (state === 'active') return true
    if (state === 'no_desktop') return false
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ctx.recheckMs)
      signal?.addEventListener('abort', done, { once: true })
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
    })
  }
}

/** The failure a run ends with after waiting `waitedMs` for the session in vain. */
export function stillLocked(error: RunError, waitedMs: number): RunError {
  if (waitedMs < 1000) return error
  return {
    ...error,
    message: `${error.message} (the run waited ${Math.round(waitedMs / 1000)} s for the session to come back)`,
  }
}
