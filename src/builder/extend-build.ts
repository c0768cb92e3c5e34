// A later sample of a job that already has an automation. The sample is run first; if it ends in
// a known scenario with what it expects, nothing changes. Otherwise the steps before the submit
// are replayed, new input values are mapped, the submit is pressed by hand and the ending judged:
// a known ending may need more reads, a new one becomes a scenario with its own branch.
import { resolveSelector } from '../automation/index.ts'
import { renderSelector } from '../automation/selectors.ts'
import type { AppSpec, Automation, Scenario, Step } from '../protocol/automation.ts'
import type { UiElement, WindowInfo } from '../protocol/elements.ts'
import { classifyEnding } from './classify.ts'
import {
  branchStep,
  compose,
  decompose,
  dismissStep,
  knownEnding,
  type Plan,
  scenarioFor,
  uniqueName,
} from './compose.ts'
import type { BuildResult } from './contract.ts'
import { nonEmpty, reportEnding, waitBudget } from './fresh-build.ts'
import { inputTexts, nameFromMessage, successName } from './generalise.ts'
import { inputLeaves } from './input-leaves.ts'
import { mapFields } from './map-fields.ts'
import { performStep, submitAndObserve } from './observe.ts'
import { expectedReads, type OutputContext, readsForExpect } from './outputs.ts'
import { readPrompt } from './prompt.ts'
import { BuildFailure, type BuildSession } from './session.ts'
import { compareExpect, verify } from './verify.ts'

/** The probe run gives up on an unknown ending after this long (the ending is then observed by hand). */
const PROBE_WAIT_MS = 3_000

export async function extendBuild(session: BuildSession, automation: Automation): Promise<BuildResult> {
  const { sample, prompt } = session.request
  const reading = readPrompt(prompt)
  const inputs = inputTexts(sample.input)
  const plan = decompose(automation)
  if (!plan)
    throw new BuildFailure(
      'VERIFY_FAILED',
      'The job’s automation has no wait step after its submit, so the builder cannot tell where a sample ends. ' +
        'Edit the automation or teach the job again from scratch.',
    )
  const used = templatePaths(automation)
  const fresh = inputLeaves(sample.input).filter((leaf) => !used.has(leaf.path))
  session.progress('explore', 'Extending the job’s automation with a new sample', {
    scenarios: [plan.mainScenario, ...plan.scenarios.map((s) => s.name)],
    newInputs: fresh.map((l) => l.path),
  })

  if (fresh.length === 0) {
    const probe = await session.desktop('Running the automation', () =>
      session.port.run(withWaitCap(automation, PROBE_WAIT_MS), sample.input),
    )
    const mismatch =
      probe.status === 'failed' ? [] : compareExpect(probe.result, nonEmpty(sample.expect) ?? {})
    if (probe.status !== 'failed' && (probe.outcome !== 'success' || mismatch.length === 0)) {
      session.progress(
        'verify',
        `The sample already ends in “${probe.scenario}”; the automation needs no change`,
        {
          scenario: probe.scenario,
          result: probe.result,
        },
      )
      return { ok: true, automation, scenario: probe.scenario, outcome: probe.outcome, reverified: [] }
    }
    const where = probe.error?.step ? ` at “${probe.error.step}”` : ''
    session.progress(
      'observe',
      `The current automation does not cover this sample (it stopped${where}: ${probe.error?.message ?? mismatch.join('; ')}); replaying it up to the submit`,
    )
  }

  const replay = await session.desktop('Replaying the steps before the submit', () =>
    session.port.run({ version: 1, app: plan.app, steps: plan.prefix, scenarios: [] }, sample.input),
  )
  if (replay.status === 'failed')
    throw new BuildFailure(
      'VERIFY_FAILED',
      `Replaying the steps before the submit failed at “${replay.error?.step ?? '?'}”: ${replay.error?.message ?? ''}`,
    )
  session.windowId = (await appWindow(session, plan.app)).id
  const screen = await session.settle()
  const taken = targetedElements(screen.root, plan.prefix, sample.input)
  const fields = fresh.length
    ? await mapFields(session, screen.root, fresh, taken, { askRequired: false })
    : []
  for (const field of fields) await performStep(session, field.step, sample.input)
  plan.prefix.push(...fields.map((f) => f.step))

  const observed = await submitAndObserve(session, plan.submit, sample.input)
  const fieldElements = [...taken, ...fields.map((f) => f.control.element)]
  const ending = classifyEnding(observed.before.root, observed.after.root, fieldElements, inputs)
  if (!ending) throw new BuildFailure('NO_OUTCOME', `Nothing visible changed after “${plan.submit.name}”.`)
  reportEnding(session, ending, observed.elapsedMs)
  const ctx: OutputContext = {
    ending,
    after: observed.after.root,
    inputs,
    reading,
    submitLabel: plan.submit.name,
  }
  const expect = nonEmpty(sample.expect)
  const known = knownEnding(plan, observed.after.root, sample.input)
  let target: { scenario: string; outcome: Scenario['outcome'] }
  if (known === 'main') {
    const read = new Set(plan.tail.flatMap((s) => (s.kind === 'read' ? [s.into] : [])))
    const missing = Object.fromEntries(Object.entries(expect ?? {}).filter(([key]) => !read.has(key)))
    if (Object.keys(missing).length) plan.tail.unshift(...readsForExpect(session, ctx, missing))
    session.progress('observe', `This is the known ending “${plan.mainScenario}”`)
    target = { scenario: plan.mainScenario, outcome: 'success' }
  } else if (known) {
    session.progress('observe', `This is the known scenario “${known.name}”`)
    target = { scenario: known.name, outcome: known.outcome }
  } else {
    target = addEnding(session, plan, ctx, expect, observed.elapsedMs)
  }
  const extended = compose(plan)
  session.progress(
    'compose',
    `The automation now has ${extended.steps.length} steps and ${extended.scenarios.length} other scenario(s)`,
    {
      steps: extended.steps.map((s) => s.name),
      scenarios: extended.scenarios.map((s) => `${s.name} (${s.outcome})`),
    },
  )
  const verified = await verify(session, extended, sample, target)
  return { ok: true, ...verified, scenario: target.scenario, outcome: target.outcome }
}

/** A new ending: the main path's first success, or a new scenario with its branch. */
function addEnding(
  session: BuildSession,
  plan: Plan,
  ctx: OutputContext,
  expect: Record<string, unknown> | undefined,
  elapsedMs: number,
): { scenario: string; outcome: Scenario['outcome'] } {
  const { ending, after, inputs } = ctx
  const { sample } = session.request
  const expected = expect !== undefined && expectedReads(ctx, expect).missing.length === 0
  if (plan.success.length === 0 && (ending.kind === 'screen' || expected)) {
    const reads = expect ? readsForExpect(session, ctx, expect) : []
    const dismiss = dismissStep(ending, after)
    plan.success.push(ending.condition)
    plan.tail = dismiss ? [...reads, dismiss] : reads
    plan.mainScenario = uniqueName(sample.scenarioName ?? successName(ending.message, inputs), {
      ...plan,
      mainScenario: '',
    })
    plan.wait = { ...plan.wait, ...waitBudget(elapsedMs) }
    session.progress('compose', `This is the first success; it becomes the main path “${plan.mainScenario}”`)
    return { scenario: plan.mainScenario, outcome: 'success' }
  }
  const outcome = expected ? 'success' : 'alternate'
  const name = uniqueName(sample.scenarioName ?? nameFromMessage(ending.message, inputs), plan)
  const reads = expected && expect ? readsForExpect(session, ctx, expect) : []
  const scenario = scenarioFor(ending, after, name, outcome, inputs, reads)
  plan.scenarios.push(scenario)
  plan.branches.push(branchStep(scenario))
  session.progress(
    'compose',
    `New ending (${ending.signature}); it becomes scenario “${name}” (${outcome})`,
    {
      scenario: name,
      outcome,
      when: scenario.when,
    },
  )
  return { scenario: name, outcome }
}

/** Input paths an automation already uses anywhere (`{{customer.email}}` → customer.email). */
export function templatePaths(automation: Automation): Set<string> {
  return new Set(
    [...JSON.stringify(automation).matchAll(/\{\{\s*([\w$-]+(?:\.[\w$-]+)*)/g)].map((m) => m[1]!),
  )
}

/** The automation with its first wait capped, so a probe of an unknown ending gives up soon. */
function withWaitCap(automation: Automation, capMs: number): Automation {
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

/** The app's window after a run: the one showing the app's address (or title). */
async function appWindow(session: BuildSession, app: AppSpec): Promise<WindowInfo> {
  const windows = await session.desktop('Listing windows', () => session.port.listWindows())
  const origin = app.url ? originOf(app.url) : undefined
  const title = app.titleContains?.toLowerCase()
  const found = windows.find(
    (w) =>
      (origin === undefined || (w.url !== undefined && originOf(w.url) === origin)) &&
      (title === undefined || w.title.toLowerCase().includes(title)),
  )
  if (!found) throw new BuildFailure('DESKTOP_ERROR', 'The app’s window is gone after replaying its steps')
  return found
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
