// Step 8 of a build: the automation is run for real (the launch step resets the app) on the new
// sample, then on every earlier sample. A miss is retried at most twice, first with firmer
// selectors (automationId first), then with longer waits; after that the build fails and says
// which step of which sample went wrong.
import type { Automation, Outcome, Step } from '../protocol/automation.ts'
import type { RunOutcome } from '../protocol/messages.ts'
import type { SampleSpec } from './contract.ts'
import { isTypeSpec } from './outputs.ts'
import { firmer } from './selector-design.ts'
import { BuildFailure, type BuildSession } from './session.ts'

const MAX_RETRIES = 2
const SELECTOR_ERRORS = new Set([
  'ELEMENT_NOT_FOUND',
  'AMBIGUOUS_SELECTOR',
  'ELEMENT_OBSCURED',
  'ACTION_FAILED',
])

export interface Target {
  scenario: string
  outcome: Outcome
}

export interface Verified {
  automation: Automation
  reverified: { sampleId: string; scenario: string; passed: boolean }[]
}

export async function verify(
  session: BuildSession,
  automation: Automation,
  sample: SampleSpec,
  target: Target,
): Promise<Verified> {
  let current = automation
  const tried = new Set<string>()
  for (let attempt = 0; ; attempt++) {
    const run = await runOnce(session, current, sample.input)
    let problem = judge(run, target, sample.expect)
    let code: 'VERIFY_FAILED' | 'REGRESSION' = 'VERIFY_FAILED'
    let failing = run
    const reverified: Verified['reverified'] = []
    if (!problem) {
      session.progress('verify', `The new sample ends in “${run.scenario}” as expected`, {
        scenario: run.scenario,
        result: run.result,
      })
      for (const earlier of session.request.previous) {
        const again = await runOnce(session, current, earlier.input)
        const passed = again.status !== 'failed' && again.scenario === earlier.scenario
        reverified.push({ sampleId: earlier.id, scenario: again.scenario, passed })
        session.progress(
          'verify',
          `Earlier sample ${earlier.id} ${passed ? 'still ends' : 'no longer ends'} in “${earlier.scenario}”`,
          {
            sampleId: earlier.id,
            scenario: again.scenario,
            passed,
          },
        )
        if (!passed && !problem) {
          problem = `Earlier sample ${earlier.id} should end in “${earlier.scenario}” but ${describeRun(again)}`
          code = 'REGRESSION'
          failing = again
        }
      }
      if (!problem) return { automation: current, reverified }
    }
    session.progress('verify', problem, { attempt: attempt + 1 })
    const adjusted = attempt < MAX_RETRIES ? adjust(current, failing, tried) : undefined
    if (!adjusted) throw new BuildFailure(code, problem)
    session.progress('verify', `Retrying with ${adjusted.what}`)
    current = adjusted.automation
  }
}

async function runOnce(session: BuildSession, automation: Automation, input: Record<string, unknown>) {
  return session.desktop('Running the automation', () => session.port.run(automation, input))
}

/** What is wrong with a run of the new sample, or undefined when it did what the sample says. */
export function judge(run: RunOutcome, target: Target, expect: SampleSpec['expect']): string | undefined {
  if (run.status === 'failed') return `The run ${describeRun(run)}`
  if (run.scenario !== target.scenario)
    return `The run ended in “${run.scenario}” instead of “${target.scenario}”`
  if (target.outcome !== 'success' || !expect) return undefined
  const wrong = compareExpect(run.result, expect)
  return wrong.length ? `The run returned ${wrong.join('; ')}` : undefined
}

/** Differences between a result and `expect`: `$type` checks by type, other values must be equal. */
export function compareExpect(result: Record<string, unknown>, expect: Record<string, unknown>): string[] {
  const out: string[] = []
  for (const [key, expected] of Object.entries(expect)) {
    const actual = result[key]
    if (isTypeSpec(expected)) {
      const ok =
        expected.$type === 'number'
          ? actual !== '' && Number.isFinite(Number(actual))
          : expected.$type === 'string'
            ? typeof actual === 'string' && actual !== ''
            : typeof actual === expected.$type
      if (!ok) out.push(`“${key}” = ${JSON.stringify(actual)}, expected a ${expected.$type}`)
    } else if (String(actual ?? '').trim() !== String(expected).trim()) {
      out.push(`“${key}” = ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`)
    }
  }
  return out
}

function describeRun(run: RunOutcome): string {
  if (run.status !== 'failed') return `ended in “${run.scenario}”`
  const at = run.error?.step ? ` at step “${run.error.step}”` : ''
  return `stopped${at}: ${run.error?.message ?? 'no reason given'}`
}

/** The next remedy for a failed run: firmer selectors for a selector problem, longer waits otherwise. */
function adjust(
  automation: Automation,
  run: RunOutcome,
  tried: Set<string>,
): { automation: Automation; what: string } | undefined {
  // Waiting longer only helps a wait that timed out; a wrong or missing element needs another selector.
  const code = run.error?.code
  const remedies =
    code === 'WAIT_TIMEOUT'
      ? ['longer']
      : code && SELECTOR_ERRORS.has(code)
        ? ['firmer']
        : ['firmer', 'longer']
  for (const remedy of remedies) {
    if (tried.has(remedy)) continue
    tried.add(remedy)
    const next = remedy === 'firmer' ? mapSteps(automation, firmerStep) : mapSteps(automation, longerStep)
    if (JSON.stringify(next) !== JSON.stringify(automation))
      return { automation: next, what: remedy === 'firmer' ? 'automationIds tried first' : 'longer waits' }
  }
  return undefined
}

function mapSteps(automation: Automation, change: (step: Step) => Step): Automation {
  return {
    ...automation,
    steps: automation.steps.map(change),
    scenarios: automation.scenarios.map((s) => ({ ...s, steps: s.steps.map(change) })),
  }
}

function firmerStep(step: Step): Step {
  return 'target' in step && step.target ? ({ ...step, target: firmer(step.target) } as Step) : step
}

function longerStep(step: Step): Step {
  return step.kind === 'wait' ? { ...step, timeoutMs: (step.timeoutMs ?? 10_000) * 3 } : step
}
