/**
 * Runs `fn` at most once per event-loop turn however often it is asked for (dispatch loops:
 * ten events in one turn need one pass, not ten). Errors go to `onError`, never out of the loop.
 */
export function coalesced(
  fn: () => void,
  onError: (err: unknown) => void,
): { request(): void; stop(): void } {
  let scheduled = false
  let stopped = false
  return {
    request() {
      if (scheduled || stopped) return
      scheduled = true
      setImmediate(() => {
        scheduled = false
        if (stopped) return
        try {
          fn()
        } catch (err) {
          onError(err)
        }
      })
    },
    stop() {
      stopped = true
    },
  }
}
