// Never silently wrong (docs/builder.md, "Lookups and lists never write"): a job that reads (a
// lookup, a list) whose steps never use one of the caller's values answers every call the same,
// whatever that value says: the sample's own record or list, every time. Such a build fails with
// what to do, instead of passing on the one sample it happens to fit.
import type { Automation } from '../../protocol/automation.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { actionOf } from '../words.ts'

/** The caller's values (not request headers) that no step, selector or condition names. */
export function unusedInputs(automation: Automation, leaves: readonly InputLeaf[]): InputLeaf[] {
  const text = JSON.stringify(automation)
  return leaves.filter((leaf) => {
    if (leaf.source === 'header') return false
    const path = leaf.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return !new RegExp(`\\{\\{\\s*${path}\\s*(\\||\\}\\})`).test(text)
  })
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
  if (!reads) return
  const unused = unusedInputs(automation, leaves)
  if (!unused.length) return
  const named = unused.map((l) => `“${l.path}” (“${String(l.value)}”)`).join(', ')
  throw new BuildFailure(
    'VERIFY_FAILED',
    `The steps never use ${named}: every call would answer what the sample’s ${unused.length > 1 ? 'values' : 'value'} ` +
      'found, whatever the caller sends. Teach again with demonstrate: true and show where that value is typed or ' +
      'chosen, or leave it out of the input if the job does not need it.',
  )
}
