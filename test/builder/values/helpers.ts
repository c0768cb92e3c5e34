// Runs the builder's field mapping on a recorded snapshot, with a scripted person answering.
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { BuildRequest, DesktopPort } from '../../../src/builder/contract.ts'
import { type InputLeaf, inputLeaves } from '../../../src/builder/input-leaves.ts'
import { type FieldStep, mapFields } from '../../../src/builder/map/map-fields.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import { Step } from '../../../src/protocol/automation.ts'
import type { Snapshot } from '../../../src/protocol/elements.ts'
import { type Reply, scriptedIO, type Transcript } from '../scripted-io.ts'

export type Recorded =
  | 'fossil-tktnew'
  | 'fossil-wikinew'
  | 'fossil-tktedit'
  | 'adminer-login'
  | 'dokuwiki-start'
  | 'profile-form'
  /** profile-form as the browser driver reported it before it said `inputType` (kept, not re-recorded). */
  | 'profile-form-unmarked-date'
  | 'date-parts'
  | 'picker-and-search'
  | 'combobox-and-grid'
  /** Recorded by test/builder/outputs/snapshots/capture.ts (Debian's phpLiteAdmin, signed in). */
  | 'phpliteadmin-search'
  /** Recorded by the same script (Debian's Adminer Editor on a shop database, signed in). */
  | 'adminer-editor-new-item'
  | 'adminer-editor-select'
  | 'adminer-editor-edit'

export async function recorded(name: Recorded): Promise<Snapshot> {
  return (await Bun.file(join(import.meta.dir, 'snapshots', `${name}.json`)).json()) as Snapshot
}

/** A desktop that must not be touched: mapping is pure judgement plus questions. */
const noDesktop = new Proxy({} as DesktopPort, {
  get(_, key) {
    if (key === 'name') return 'none'
    throw new Error(`mapping touched the desktop (${String(key)})`)
  },
})

export interface Mapped {
  steps: FieldStep[]
  transcript: Transcript
  leaves: InputLeaf[]
}

/** Maps the sample's values onto the recorded screen and checks every step is a valid automation step. */
export async function mapOn(
  name: Recorded,
  input: Record<string, unknown>,
  replies: Reply[] = [],
  naming: { prompt?: string; expect?: Record<string, unknown> } = {},
): Promise<Mapped> {
  const snapshot = await recorded(name)
  const transcript = scriptedIO(replies)
  const request: BuildRequest = { prompt: naming.prompt ?? '', sample: { id: 's1', input }, previous: [] }
  const session = new BuildSession(noDesktop, transcript.io, request)
  const leaves = inputLeaves(input, naming)
  const steps = await mapFields(session, snapshot.root, leaves)
  for (const { step } of steps)
    if (!Value.Check(Step, step)) throw new Error(`invalid step: ${JSON.stringify(step)}`)
  return { steps, transcript, leaves }
}

/** The step that takes this input path (exactly one). */
export function stepFor(mapped: Mapped, path: string): Step {
  const found = mapped.steps.filter((s) => s.leaf?.path === path)
  if (found.length !== 1)
    throw new Error(`${found.length} steps take “${path}”: ${mapped.transcript.lines.join('\n')}`)
  return found[0]!.step
}
