// A person's input in a native window, watched through the helper for a demonstration (the
// native driver's watchInput). A helper that dies while a person demonstrates is restarted by the
// host, and the watch is taken up again on the same window, so the recording goes on.
import type { Logger } from '../../../lib/logger.ts'
import type { HelperEvent } from '../../../protocol/helper.ts'
import type { HelperHost, HelperSubscription } from './helper-host.ts'

/** How often one input watch is taken up again after its helper died. */
const MAX_RESUMES = 3

export interface InputWatchOptions {
  host: HelperHost
  log: Logger
  windowId: string
  callTimeoutMs?: number
  /** Each input line of the watch, as the helper sent it. */
  onLine: (line: HelperEvent<'input'>) => void
  /** Calls with the window that stands for the watched one now (its app's next window once it closed). */
  onWindow: <T>(call: (id: string) => Promise<T>) => Promise<T>
}

/** Starts the watch; resolves with the function that ends it. */
export async function watchHelperInput(options: InputWatchOptions): Promise<() => Promise<void>> {
  const { host, log, windowId, callTimeoutMs, onLine, onWindow } = options
  let stopped = false
  // Taken up again only once it has started, and at most a few times (a helper that dies on
  // every watch is not restarted without end).
  let resumes = -1
  let current: HelperSubscription | undefined
  // A helper that dies while a person demonstrates is restarted by the host; the watch is taken
  // up again on the same window, so the recording goes on (the events so far are the agent's).
  const start = async (): Promise<{ deviceInput: boolean; reason?: string }> => {
    const subscription = await host.subscribe('input', onLine, (error) => {
      if (stopped || error.code === 'DISCONNECTED' || resumes < 0 || resumes >= MAX_RESUMES) return
      resumes++
      log.warn({ windowId, err: error.message }, 'input watch lost with the helper; resuming it')
      // Once the host has let go of the dead helper (it tells us before it does), so the new
      // watch goes to the one it starts.
      queueMicrotask(() =>
        start().then(
          () => log.info({ windowId }, 'input watch resumed after the helper restarted'),
          (err: Error) => log.warn({ windowId, err: err.message }, 'input watch could not be resumed'),
        ),
      )
    })
    try {
      const started = await onWindow((id) =>
        host.call('watchInput', { windowId: id, watch: subscription.watch }, { timeoutMs: callTimeoutMs }),
      )
      if (stopped) {
        // Stopped while this watch was being taken up: it ends here.
        await host.call('unwatchInput', { watch: subscription.watch }).catch(() => undefined)
        subscription.close()
        return started
      }
      current = subscription
      return started
    } catch (error) {
      subscription.close()
      throw error
    }
  }
  const started = await start()
  resumes = 0
  if (!started.deviceInput)
    log.warn({ windowId, reason: started.reason }, 'clicks and keys made at the PC itself are not recorded')
  return async () => {
    if (stopped) return
    stopped = true
    const subscription = current
    if (!subscription) return
    try {
      if (host.instance === subscription.instance)
        await host.call('unwatchInput', { watch: subscription.watch }, { timeoutMs: callTimeoutMs })
    } finally {
      subscription.close()
    }
  }
}
