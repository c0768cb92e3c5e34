// A later sample of a job that already has an automation. The sample is run first; if it ends in
// a known scenario with what it expects, nothing changes. Otherwise the steps before the submit
// are replayed, new input values are mapped, the submit is pressed by hand and the ending judged:
// a known ending may need more reads, a new one becomes a scenario with its own branch.
import { lookupPath } from '../../automation/index.ts'
import type { Automation, Scenario, Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import type { BuildResult } from '../contract.ts'
import { inputTexts, nameFromMessage, successName } from '../generalise.ts'
import { inputLeaves, textValues } from '../input-leaves.ts'
import { readPrompt } from '../locate/prompt.ts'
import { mapFields } from '../map/map-fields.ts'
import { classifySent } from '../observe/classify.ts'
import { performStep, submitAndObserve } from '../observe/observe.ts'
import {
  expectedReads,
  isTypeSpec,
  listExpected,
  nonEmpty,
  type OutputContext,
  outputContext,
  readsForExpect,
  showsExpected,
} from '../outputs/outputs.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { appWindow, replayToSubmit, templatePaths, withWaitCap } from '../verify/replay.ts'
import { compareExpect, verify } from '../verify/verify.ts'
import {
  branchStep,
  compose,
  decompose,
  dismissStep,
  knownEnding,
  type Plan,
  scenarioFor,
  submitIndexOf,
  uniqueName,
} from './compose.ts'
import { guardStep, refuseOwnCollision, reportEnding, waitBudget } from './finish-build.ts'

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
  const fresh = inputLeaves(sample.input, { prompt, expect: sample.expect }).filter(
    (leaf) => !used.has(leaf.path),
  )
  // Headers are only taken on a clear match; one alone is no reason to skip the probe.
  const newValues = fresh.filter((leaf) => leaf.source !== 'header')
  session.progress(
    'explore',
    `Extending the job’s automation (endings so far: “${[plan.mainScenario, ...plan.scenarios.map((s) => s.name)].join('”, “')}”)` +
      (newValues.length ? `; new input values: ${newValues.map((l) => `“${l.path}”`).join(', ')}` : ''),
    { newInputs: fresh.map((l) => l.path) },
  )

  let probed: Snapshot | undefined
  if (newValues.length === 0) {
    const probe = await session.desktop('Running the automation', () =>
      session.port.run(withWaitCap(automation, PROBE_WAIT_MS), session.scope(sample.input)),
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
    const why =
      probe.status === 'failed'
        ? `it stopped${probe.error?.step ? ` at “${probe.error.step}”` : ''}: ${probe.error?.message ?? 'no reason given'}`
        : `it ended in “${probe.scenario}” but returned ${mismatch.join('; ')}`
    const submitted = probe.steps.findLast((step) => step.flowName === plan.submit.name)?.status === 'SUCCESS'
    if (submitted && !session.request.resettable) {
      // The app has taken this sample already: its ending is on the screen now; never submit twice.
      session.windowId = (await appWindow(session, plan.app)).id
      probed = await session.settle()
      session.progress(
        'observe',
        `The current automation does not cover this sample (${why}). Its submit already went through, ` +
          'and the app keeps its data, so the ending is read from the screen it left instead of submitting again',
      )
    } else
      session.progress(
        'observe',
        `The current automation does not cover this sample (${why}); replaying it up to the submit`,
      )
  }

  plan.prefix = plan.prefix.map((step) => optionalWhenMissing(session, step, sample.input))
  const { screen, taken } = await replayToSubmit(session, plan, sample.input)
  const fields =
    fresh.length && !probed ? await mapFields(session, screen.root, fresh, taken, { askRequired: false }) : []
  for (const field of fields) await performStep(session, field.step, sample.input)
  plan.prefix.push(...fields.map((f) => f.step))

  const observed = probed
    ? { before: screen, after: probed, elapsedMs: PROBE_WAIT_MS }
    : await submitAndObserve(session, plan.submit, sample.input)
  const fieldElements = [...taken, ...fields.map((f) => f.control.element)]
  const ending = classifySent(
    observed,
    fieldElements,
    inputs,
    inputLeaves(sample.input, { prompt, expect: sample.expect }),
  )
  if (!ending)
    throw new BuildFailure('NO_OUTCOME', `Nothing visible changed after “${labelOf(plan.submit)}”.`)
  reportEnding(session, ending, observed.elapsedMs)
  // A save's ending needs its check before the submit, as a first build's does (finish-build.ts).
  if (ending.precondition && !plan.guard) plan.guard = guardStep(ending.precondition)
  const ctx = outputContext(observed, {
    ending,
    inputs,
    values: textValues(inputLeaves(sample.input, { prompt, expect: sample.expect })),
    reading,
    submitLabel: labelOf(plan.submit),
  })
  const expect = nonEmpty(sample.expect)
  const known = knownEnding(plan, observed.after.root, sample.input)
  let target: { scenario: string; outcome: Scenario['outcome'] }
  if (known === 'main') {
    // A literal `expect` is evidence that overrides how an output was read before (an answer
    // remembered from an earlier build): its read is made anew from where the value shows.
    const literal = Object.entries(expect ?? {}).filter(([, v]) => !isTypeSpec(v) && !listExpected(v))
    const reread = literal.length ? expectedReads(ctx, Object.fromEntries(literal)).steps : []
    if (reread.length) {
      const keys = new Set(reread.map((r) => r.into))
      plan.tail = plan.tail.filter((s) => s.kind !== 'read' || !keys.has(s.into))
      plan.tail.unshift(...reread)
      session.progress(
        'outputs',
        `The sample's expected values re-read ${[...keys].map((k) => `“${k}”`).join(', ')}`,
      )
    }
    const read = new Set(plan.tail.flatMap((s) => (s.kind === 'read' ? [s.into] : [])))
    const missing = Object.fromEntries(Object.entries(expect ?? {}).filter(([key]) => !read.has(key)))
    if (Object.keys(missing).length) plan.tail.unshift(...(await readsForExpect(session, ctx, missing)))
    session.progress('observe', `This is the known ending “${plan.mainScenario}”`)
    target = { scenario: plan.mainScenario, outcome: 'success' }
  } else if (known) {
    session.progress('observe', `This is the known scenario “${known.name}”`)
    target = { scenario: known.name, outcome: known.outcome }
  } else {
    refuseOwnCollision(session, ending)
    target = await addEnding(session, plan, ctx, expect, observed.elapsedMs)
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
  const verified = await verify(session, extended, sample, target, {
    after: observed.after,
    submitIndex: submitIndexOf(plan),
  })
  return { ok: true, ...verified, scenario: target.scenario, outcome: target.outcome }
}

/** A new ending: the main path's first success, or a new scenario with its branch. */
async function addEnding(
  session: BuildSession,
  plan: Plan,
  ctx: OutputContext,
  expect: Record<string, unknown> | undefined,
  elapsedMs: number,
): Promise<{ scenario: string; outcome: Scenario['outcome'] }> {
  const { ending, after, inputs } = ctx
  const { sample } = session.request
  const expected = showsExpected(ctx, expect)
  if (plan.success.length === 0 && (ending.kind === 'screen' || expected)) {
    const reads = expect ? await readsForExpect(session, ctx, expect) : []
    const dismiss = dismissStep(ending, after)
    plan.success.push(ending.condition)
    plan.tail = dismiss ? [...reads, dismiss] : reads
    plan.mainScenario = uniqueName(
      sample.scenarioName ?? ending.name ?? successName(ending.message, inputs),
      {
        ...plan,
        mainScenario: '',
      },
    )
    plan.wait = { ...plan.wait, ...waitBudget(elapsedMs) }
    session.progress('compose', `This is the first success; it becomes the main path “${plan.mainScenario}”`)
    return { scenario: plan.mainScenario, outcome: 'success' }
  }
  const outcome = expected ? 'success' : 'alternate'
  const name = uniqueName(sample.scenarioName ?? ending.name ?? nameFromMessage(ending.message, inputs), plan)
  const reads = expected && expect ? await readsForExpect(session, ctx, expect) : []
  const scenario = scenarioFor(ending, after, name, outcome, inputs, reads)
  plan.scenarios.push(scenario)
  plan.branches.push(branchStep(scenario))
  session.progress(
    'compose',
    `New ending (${ending.signature}); it becomes scenario “${name}” (${outcome}), whose steps ${scenario.steps.length ? scenario.steps.map((s) => s.name.charAt(0).toLowerCase() + s.name.slice(1)).join(', then ') : 'return the message'}`,
    {
      scenario: name,
      outcome,
      when: scenario.when,
    },
  )
  return { scenario: name, outcome }
}

/**
 * A fill whose value this sample lacks becomes optional: leaving a field out is what such a
 * sample is about ("what if the email is missing"), and the app's answer to it is the ending.
 */
function optionalWhenMissing(session: BuildSession, step: Step, input: Record<string, unknown>): Step {
  if (step.kind !== 'fill' && step.kind !== 'select' && step.kind !== 'check') return step
  if (step.optional) return step
  const template = step.kind === 'check' ? (typeof step.checked === 'string' ? step.checked : '') : step.value
  const missing = [...template.matchAll(/\{\{\s*([\w$-]+(?:\.[\w$-]+)*)\s*\}\}/g)].some(
    (m) => lookupPath(input, m[1]!) === undefined || lookupPath(input, m[1]!) === null,
  )
  if (!missing) return step
  session.progress('compose', `“${step.name}” becomes optional: this sample has no value for it`)
  return { ...step, optional: true }
}

/** What a person calls the submit step's target: the button's name when a fingerprint has it. */
function labelOf(step: Step): string {
  const target = 'target' in step ? step.target : undefined
  const named = target?.fingerprints.find((f) => f.by === 'role')
  return named && named.by === 'role' ? named.name : step.name
}
