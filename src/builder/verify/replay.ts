// Getting an existing automation's app back to the moment before its submit, so the builder can
// press the submit itself and watch: the steps before it are run by the real runner, then the
// window is found again and the controls those steps fill are marked as taken.
import { describeWindowSpec, matchWindows, resolveSelector } from '../../automation/index.ts'
import { renderSelector } from '../../automation/selectors.ts'
import type { AppSpec, Automation, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../protocol/elements.ts'
import type { Plan } from '../compose/compose.ts'
import { learnOptionWord } from '../map/option-value-map.ts'
import { BuildFailure, type BuildSession } from '../session.ts'

export async function replayToSubmit(
  session: BuildSession,
  plan: Plan,
  input: Record<string, unknown>,
): Promise<{ screen: Snapshot; taken: UiElement[] }> {
  const run = () =>
    session.desktop('Replaying the steps before the submit', () =>
      session.port.run(
        {
          version: 1,
          app: plan.app,
          ...(plan.signIn ? { signIn: plan.signIn } : {}),
          steps: plan.prefix,
          scenarios: [],
        },
        session.scope(input),
      ),
    )
  let replay = await run()
  // A drop-down or radio met a word of this sample no option names: learn which option it means
  // (on the screen where the replay stopped), keep it in the step's valueMap, and replay again.
  for (let learnt = 0; replay.status === 'failed' && replay.error?.code === 'OPTION_NOT_FOUND'; learnt++) {
    const at = plan.prefix.findIndex((step) => step.name === replay.error?.step)
    if (at < 0 || learnt >= plan.prefix.length) break
    session.windowId = (await appWindow(session, plan.app)).id
    const screen = await session.snapshot()
    const step = await learnOptionWord(session, screen.root, plan.prefix[at]!, session.scope(input))
    if (!step) break
    plan.prefix[at] = step
    replay = await run()
  }
  if (replay.status === 'failed')
    throw new BuildFailure(
      'VERIFY_FAILED',
      `Replaying the steps before the submit failed at “${replay.error?.step ?? '?'}”: ${replay.error?.message ?? ''}`,
    )
  session.progress('observe', `Replayed the ${plan.prefix.length} steps before the submit with this sample`, {
    steps: plan.prefix.map((s) => s.name),
  })
  session.windowId = (await appWindow(session, plan.app)).id
  const screen = await session.settle()
  return { screen, taken: targetedElements(screen.root, plan.prefix, input) }
}

/** Input paths an automation already uses anywhere (`{{customer.email}}` → customer.email). */
export function templatePaths(automation: Automation): Set<string> {
  return new Set(
    [...JSON.stringify(automation).matchAll(/\{\{\s*([\w$-]+(?:\.[\w$-]+)*)/g)].map((m) => m[1]!),
  )
}

/** The automation with its first wait capped, so a probe of an unknown ending gives up soon. */
export function withWaitCap(automation: Automation, capMs: number): Automation {
  let capped = false
  const steps = automation.steps.map((step): Step => {
    if (capped || step.kind !== 'wait') return step
    capped = true
    return { ...step, timeoutMs: Math.min(step.timeoutMs ?? 10_000, capMs) }
  })
  return { ...automation, steps }
}

/** Elements the existing fill/select/check steps act on: their controls are taken. */
function targetedElements(root: UiElement, steps: Step[], input: Record<string, unknown>): UiElement[] {
  return steps.flatMap((step) => {
    if (step.kind !== 'fill' && step.kind !== 'select' && step.kind !== 'check') return []
    try {
      const found = resolveSelector(root, renderSelector(step.target, input))
      return found.status === 'found' ? [found.element] : []
    } catch {
      // A radio chosen by a value this sample lacks: nothing to take.
      return []
    }
  })
}

/**
 * The app's window after a run, found the way the runner finds it (address, title, program). When
 * several fit, the one the build was already using wins.
 */
export async function appWindow(session: BuildSession, app: AppSpec): Promise<WindowInfo> {
  const windows = await session.desktop('Listing windows', () => session.port.listWindows())
  const found = matchWindows(windows, app)
  const window = found.find((w) => w.id === session.windowId) ?? found[0]
  if (!window)
    throw new BuildFailure(
      'DESKTOP_ERROR',
      `The app’s window (${describeWindowSpec(app) || 'any'}) is gone after replaying its steps`,
    )
  return window
}
