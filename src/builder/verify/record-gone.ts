// A replay that cannot find the sample's own record because the sample's send took it away
// (docs/builder.md, "Forms as people use them"): moving a message to a folder, archiving a ticket, or anything
// that takes the record out of the list where it was found. The replay stops before the submit,
// but the record was picked earlier, by the sample's value; after the sample's own run it is
// shown nowhere on that screen. The steps from the pick on were checked where the sample's own
// run went through them; the rest is checked on the screen the send produced, as always.
import { indexTree } from '../../automation/element-tree.ts'
import { renderTemplate } from '../../automation/templates.ts'
import type { Automation } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { RunOutcome, StepRecord } from '../../protocol/messages.ts'
import type { BuildSession } from '../session.ts'

/** Undefined unless the run stopped at a step that picks the sample's record, now shown nowhere. */
export async function recordGone(
  session: BuildSession,
  automation: Automation,
  run: RunOutcome & { steps?: StepRecord[] },
  input: Record<string, unknown>,
  submitIndex: number,
  after: Snapshot,
): Promise<{ step: string; value: string } | undefined> {
  // A lookup or list takes nothing away: a record it cannot find again is a failure.
  if (run.error?.code !== 'ELEMENT_NOT_FOUND' || session.request.route?.method === 'GET') return undefined
  const failed = run.steps?.find((s) => s.status === 'FAILED')
  if (!failed) return undefined
  // The step by its name (the sign-in's steps, run when its form shows, count in the order too),
  // which must be the steps' only one of that name and the first to pick by a caller's value:
  // the pick of the record, not a choice made once it is open.
  const named = automation.steps.flatMap((s, i) => (s.name === failed.flowName ? [i] : []))
  const index = named.length === 1 ? named[0]! : -1
  const step = automation.steps[index]
  if (!step || index <= 0 || index >= submitIndex) return undefined
  if (!('target' in step) || !step.target) return undefined
  const firstPick = automation.steps.findIndex(
    (s) => 'target' in s && !!s.target && !!JSON.stringify(s.target).match(TEMPLATES),
  )
  if (firstPick !== index) return undefined
  const values = (JSON.stringify(step.target).match(TEMPLATES) ?? [])
    .map((template) => rendered(template, input))
    .filter((v) => v.trim().length >= 3)
  if (!values.length) return undefined
  const screen = await session.snapshot().catch(() => undefined)
  if (!screen) return undefined
  // Gone from the screen the replay stopped on, and from the one the sample's own send ended on.
  const shownNow = texts(screen.root)
  const shownAfter = texts(after.root)
  const value = values.find(
    (v) => !shownNow.includes(v.trim().toLowerCase()) && !shownAfter.includes(v.trim().toLowerCase()),
  )
  return value === undefined ? undefined : { step: step.name, value }
}

const TEMPLATES = /\{\{\s*[A-Za-z_][\w.]*\s*\}\}/g

/** The caller's value a template names, or '' where the input has none. */
function rendered(template: string, input: Record<string, unknown>): string {
  try {
    return renderTemplate(template, input)
  } catch {
    return ''
  }
}

/** Every name and value on a screen, as one lower-case text. */
function texts(root: UiElement): string {
  return indexTree(root)
    .all.flatMap((e) => [e.name, e.value ?? ''])
    .join('\n')
    .toLowerCase()
}
