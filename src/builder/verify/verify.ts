// Step 8 of a build: the automation is checked on the new sample, then on every earlier sample.
// Real apps keep their data, so a sample's side effect happens at most once: the exploring submit
// was the new sample's run, so its steps are replayed up to (not including) the submit and the
// rest (the wait, the branches, the reads) is checked by the real runner on the screen that
// submit produced; earlier samples are replayed up to the submit. Only a job that says its app is
// resettable gets full runs. A miss is retried at most twice, first with firmer selectors
// (automationId first), then with longer waits; after that the build fails and says which step of
// which sample went wrong.
import type { Automation, Outcome, Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import type { RunOutcome } from '../../protocol/messages.ts'
import type { SampleSpec } from '../contract.ts'
import { isTypeSpec } from '../outputs/outputs.ts'
import { firmer } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { recordGone } from './record-gone.ts'
import { runOnScreen } from './snapshot-driver.ts'

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

/** The screen the new sample's one submit produced, and where that submit is in the automation. */
export interface Evidence {
  after: Snapshot
  submitIndex: number
  /**
   * Where the sample's own send began when it took more than one step ("Remove" in its row,
   * then "Remove" in the "Are you sure?" dialog): replays stop there, since the record may be
   * gone after the sample's own run. Defaults to `submitIndex`.
   */
  sendIndex?: number
  /** Screens clicks after the submit led to, in order (the record opened from the results). */
  next?: Snapshot[]
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
  evidence?: Evidence,
): Promise<Verified> {
  const resettable = session.request.resettable === true
  const submitIndex = evidence?.submitIndex ?? commitIndex(automation)
  if (!resettable)
    session.progress(
      'verify',
      'The app keeps its data, so nothing is submitted twice: the steps are replayed up to ' +
        `“${automation.steps[submitIndex]?.name ?? 'the submit'}”, and what follows it is checked on the screen the sample’s own submit produced`,
    )
  let current = automation
  const tried = new Set<string>()
  for (let attempt = 0; ; attempt++) {
    const run =
      resettable || !evidence
        ? await runOnce(session, current, sample.input)
        : await checkOnce(session, current, submitIndex, evidence, sample.input)
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
        const again = resettable
          ? await runOnce(session, current, earlier.input)
          : await runOnce(session, upTo(current, evidence?.sendIndex ?? submitIndex), earlier.input)
        const passed = again.status !== 'failed' && (!resettable || again.scenario === earlier.scenario)
        const scenario = resettable ? again.scenario : earlier.scenario
        reverified.push({ sampleId: earlier.id, scenario, passed })
        session.progress(
          'verify',
          resettable
            ? `Earlier sample ${earlier.id} ${passed ? 'still ends' : 'no longer ends'} in “${earlier.scenario}”`
            : `Earlier sample ${earlier.id} ${passed ? 'still reaches' : 'no longer reaches'} the submit (not pressed again: its record already exists)`,
          { sampleId: earlier.id, scenario, passed },
        )
        if (!passed && !problem) {
          problem = resettable
            ? `Earlier sample ${earlier.id} should end in “${earlier.scenario}” but ${describeRun(again)}`
            : `Earlier sample ${earlier.id} can no longer be filled in: it ${describeRun(again)}`
          code = 'REGRESSION'
          failing = again
        }
      }
      if (!problem) return { automation: current, reverified }
    }
    session.progress('verify', problem, { attempt: attempt + 1 })
    const adjusted = attempt < MAX_RETRIES ? adjust(current, failing, tried) : undefined
    if (!adjusted) throw new BuildFailure(code, problem + hint(failing))
    session.progress('verify', `Retrying with ${adjusted.what}`)
    current = adjusted.automation
  }
}

async function runOnce(session: BuildSession, automation: Automation, input: Record<string, unknown>) {
  return session.desktop('Running the automation', () => session.port.run(automation, session.scope(input)))
}

/**
 * The new sample without a second submit: its steps up to the submit on the app, then the rest on
 * the screen its own submit produced.
 */
async function checkOnce(
  session: BuildSession,
  automation: Automation,
  submitIndex: number,
  evidence: Evidence,
  input: Record<string, unknown>,
): Promise<RunOutcome> {
  const { after, sendIndex = submitIndex } = evidence
  const end = Math.min(sendIndex, submitIndex)
  const replayed = upTo(automation, end)
  const guard = automation.steps[end - 1]
  if (guard?.kind === 'assert' && !replayed.steps.includes(guard))
    session.progress(
      'verify',
      `“${guard.name}” held on the sample’s own run; it is checked again on every live call`,
    )
  const before = await runOnce(session, replayed, input)
  if (before.status === 'failed') {
    const gone = await recordGone(session, automation, before, input, end, after)
    if (!gone) return before
    session.progress(
      'verify',
      `“${gone.value}” is shown nowhere once the sample’s own run is done (it took the record away from where “${gone.step}” finds it): the steps from there to the submit count as checked by that run`,
    )
  }
  const rest = await runOnScreen(automation, submitIndex + 1, after, input, evidence.next)
  const at = new Date().toISOString()
  return { ...rest, startedAt: before.startedAt, finishedAt: at }
}

/**
 * The automation's steps before index `end` (the submit), with no scenarios: nothing is committed.
 * Nor is a check right before the submit (compose.ts `guard`: a save needs unsaved changes): it
 * held on the sample's own run, which made the change, and a replay after that run has nothing
 * left to change; every live call checks it.
 */
export function upTo(automation: Automation, end: number): Automation {
  const steps = automation.steps.slice(0, end)
  if (steps.at(-1)?.kind === 'assert') steps.pop()
  return { ...automation, steps, scenarios: [] }
}

/** Where the committing step is: the step just before the first wait for the outcome. */
export function commitIndex(automation: Automation): number {
  const wait = automation.steps.findIndex((s) => s.kind === 'wait')
  return wait > 0 ? wait - 1 : automation.steps.length
}

/** What would unblock a failed verification, said the way the person teaching can act on it. */
function hint(run: RunOutcome): string {
  const code = run.error?.code
  if (code === 'ELEMENT_NOT_FOUND' || code === 'AMBIGUOUS_SELECTOR')
    return '. The control the step looks for is not on that screen in the same way each time: teach again with the app on its start screen, or name the control in the prompt.'
  if (code === 'WAIT_TIMEOUT' || code === 'EXTRACT_NO_MATCH')
    return '. The screen after the submit does not show what the job reads: give `expect` for the outputs, or answer choose_outputs with what the app shows.'
  return ''
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
            : expected.$type === 'array'
              ? Array.isArray(actual)
              : typeof actual === expected.$type
      if (!ok) out.push(`“${key}” = ${JSON.stringify(actual)}, expected a ${expected.$type}`)
    } else if (Array.isArray(expected)) {
      // A list given by example: every item the sample names is among the rows read; an item
      // given as an object is one row whose fields all equal it, field by field.
      const rows = Array.isArray(actual) ? actual : undefined
      const shows = (row: unknown, item: unknown): boolean =>
        item !== null && typeof item === 'object'
          ? row !== null &&
            typeof row === 'object' &&
            Object.entries(item).every(([k, v]) => sameText((row as Record<string, unknown>)[k], v))
          : JSON.stringify(row).toLowerCase().includes(String(item).toLowerCase())
      const absent = expected.filter((item) => !rows?.some((row) => shows(row, item)))
      if (!rows || absent.length)
        out.push(`“${key}” = ${JSON.stringify(actual)}, expected a list showing ${JSON.stringify(absent)}`)
    } else if (String(actual ?? '').trim() !== String(expected).trim()) {
      out.push(`“${key}” = ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`)
    }
  }
  return out
}

const sameText = (a: unknown, b: unknown) =>
  String(a ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase() ===
  String(b ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()

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
