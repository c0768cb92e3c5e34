// The agent's look at its desktop's session (docs/windows.md, "Locked and disconnected
// sessions"): every few seconds it asks the driver whether the desktop can be reached, and tells
// the server at once when that changes, so the dashboard shows a locked or disconnected PC.
import type { Logger } from '../lib/logger.ts'
import type { Driver } from '../protocol/driver.ts'
import type { AgentConnection } from './connection.ts'

/** Starts looking (a driver that can tell: the native ones); returns what stops it. */
export function watchSession(
  driver: Driver,
  connection: AgentConnection,
  log: Logger,
  pollMs: number,
): () => void {
  if (!driver.desktopState) return () => {}
  let looking = false
  const look = async () => {
    if (looking) return
    looking = true
    try {
      const state = await driver.desktopState!().catch((err: Error) => {
        log.debug({ err }, 'the desktop session could not be looked at')
        return undefined
      })
      if (state === connection.session) return
      const before = connection.session
      connection.session = state
      if (state && state !== 'active')
        log.warn({ session: state }, 'the desktop cannot be reached: runs wait for it to come back')
      else if (state === 'active' && before) log.info({ session: state, before }, 'the desktop is back')
      connection.heartbeat()
    } finally {
      looking = false
    }
  }
  void look()
  const timer = setInterval(() => void look(), pollMs)
  return () => clearInterval(timer)
}
