// A build on a native desktop leaves the app's saved settings as it found them: the agent reads
// them before the build touches the desktop and puts back what changed once it ends, after closing
// the apps the build started (src/agent/drivers/native/settings-guard.ts; docs/builder.md, "Do no
// harm"). A browser desktop is not asked; a native agent that refuses the call is not guarded, and
// the build goes on as before. An agent older than these calls ignores them: such a build waits
// for the first call's deadline once at its start and once at its end.
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { getDesktop } from '../../modules/desktops/service.ts'
import type { AgentHub } from '../agent-hub/index.ts'

/**
 * Closing the build's apps (5 s each, as a person would), writing files back, and starting again
 * the apps that were open before the build (up to 30 s for a window each).
 */
const PUT_BACK_TIMEOUT_MS = 75_000

export interface SettingsGuard {
  /**
   * Puts the settings back, once (later calls do nothing); `told` hears what was put back, for the
   * build's progress.
   */
  putBack(told?: (message: string, data: Record<string, unknown>) => void): Promise<void>
}

export async function guardSettings(
  ctx: AppContext,
  hub: AgentHub,
  desktopId: string,
): Promise<SettingsGuard> {
  const { log } = ctx
  // Only the Linux desktop driver keeps settings as files (a browser keeps none on the desktop,
  // Windows apps keep theirs in the registry, which is not guarded): nothing to ask the others.
  const native = getDesktop(ctx, desktopId)?.driver === 'desktop'
  const guarded = await Promise.resolve()
    .then(() =>
      native ? hub.rpc<{ guarded: boolean }>(desktopId, 'guardSettings', [], 15_000) : { guarded: false },
    )
    .then((r) => native && r.guarded === true)
    // No answer in time: the agent may have read them all the same, so the end still asks it to
    // put them back (an agent that refuses the call, or is gone, answers at once).
    .catch((err) => native && err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE')
  let done = !guarded
  return {
    async putBack(told) {
      if (done) return
      done = true
      try {
        const r = await hub.rpc<{ restored: string[]; removed: string[]; reopened?: string[] }>(
          desktopId,
          'restoreSettings',
          [],
          PUT_BACK_TIMEOUT_MS,
        )
        const count = r.restored.length + r.removed.length
        if (count)
          told?.(
            `Put back ${count} settings file${count === 1 ? '' : 's'} the app changed while the build tried it: ${[
              ...r.restored,
              ...r.removed,
            ]
              .slice(0, 5)
              .join(', ')}${count > 5 ? ', …' : ''}`,
            r,
          )
        if (r.reopened?.length)
          told?.(
            `Started ${r.reopened.map((t) => `“${t}”`).join(', ')} again: it was open before the build, which closed it to start afresh`,
            { reopened: r.reopened },
          )
      } catch (err) {
        log.warn(
          { err: (err as Error).message, desktopId },
          'the settings a build changed could not be put back',
        )
      }
    },
  }
}
