// Never silently wrong (docs/builder.md, "Lookups and lists never write"): a job whose steps never
// use one of the caller's values does every call the same, whatever that value says: a lookup or
// list answers the sample's own record or list every time, and a job that writes puts each new
// record where the sample's went (the sample's parent, queue or folder). Such a build fails with
// what to do, instead of passing on the one sample it happens to fit. A job that writes may leave
// out a value nothing on its form takes (progress says so); one whose steps hold the sample's
// value as a fixed text (typed, chosen or clicked as itself) did use it, for the sample alone.
import type { Automation } from '../../protocol/automation.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { actionOf } from '../words.ts'

/** The caller's values (not request headers) that no step, selector or condition names. */
export function unusedInputs(automation: Automation, leaves: readonly InputLeaf[]): InputLeaf[] {
  return leaves.filter((leaf) => leaf.source !== 'header' && !namesInput(automation, leaf))
}

/** Whether steps (or any part of a job) name the value in a template: `{{email}}`, `{{email | …}}`. */
export function namesInput(steps: unknown, leaf: InputLeaf): boolean {
  const path = leaf.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`\\{\\{\\s*${path}\\s*(\\||\\}\\})`).test(JSON.stringify(steps))
}

export function requireInputsUsed(
  session: BuildSession,
  automation: Automation,
  leaves: readonly InputLeaf[],
  reading: PromptReading,
): void {
  const reads =
    session.request.route?.method === 'GET' ||
    reading.verb === actionOf('find') ||
    leaves.some((l) => l.query)
  const fixed = fixedTexts(automation)
  const unused = unusedInputs(automation, leaves).filter(
    (l) => reads || (String(l.value).trim().length >= 2 && fixed.has(String(l.value).trim().toLowerCase())),
  )
  if (!unused.length) return
  const named = unused.map((l) => `“${l.path}” (“${String(l.value)}”)`).join(', ')
  const its = unused.length > 1 ? 'values' : 'value'
  const same = reads
    ? `every call would answer what the sample’s ${its} found, whatever the caller sends`
    : `every call would do it with the sample’s ${its}, whatever the caller sends`
  throw new BuildFailure(
    'VERIFY_FAILED',
    `The steps never use ${named}: ${same}. Teach again with demonstrate: true and show where that value is typed or ` +
      'chosen, or leave it out of the input if the job does not need it.',
  )
}

/** The texts the steps (not the sign-in) type, choose or look for as they are: values, names. */
function fixedTexts(automation: Automation): Set<string> {
  const out = new Set<string>()
  const visit = (node: unknown, key = ''): void => {
    if (typeof node === 'string') {
      if (['value', 'name', 'rowText', 'text', 'label'].includes(key)) out.add(node.trim().toLowerCase())
    } else if (Array.isArray(node)) for (const item of node) visit(item, key)
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, k)
  }
  visit(automation.steps)
  visit(automation.scenarios)
  return out
}
