import type { StoredAction } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { schemaProblems } from '../../lib/validation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { type Recording, RemoteInput, remoteKeyProblem } from '../../protocol/recording.ts'
import { canonicalKey } from '../../protocol/remote-keys.ts'

// What crosses into deskhook during "show me" is checked here: remote input before it reaches a
// desktop, and a recording before it reaches the store (no screenshot bytes, no secret values).

/** RemoteInput, checked against the variant its `kind` names, so the message names the member. */
export function checkInput(input: unknown): RemoteInput {
  const variants = RemoteInput.anyOf
  const kinds = variants.map((v) => v.properties.kind.const as string)
  const kind = (input as { kind?: unknown } | null)?.kind
  const variant = variants.find((v) => v.properties.kind.const === kind)
  if (!variant)
    throw new AppError('INVALID_REQUEST', `input.kind: must be one of ${kinds.join(', ')}`, { field: 'kind' })
  // A point left of or above the window: say so (the generic message would only name the type).
  for (const axis of ['x', 'y'] as const) {
    const v = (input as Record<string, unknown>)[axis]
    if (kind !== 'scroll' && typeof v === 'number' && v < 0)
      throw new AppError('INVALID_REQUEST', `input.${axis}: must be 0 or more (window coordinates)`, {
        field: axis,
      })
  }
  const problems = schemaProblems(variant, input, 'input')
  if (problems.length) throw new AppError('INVALID_REQUEST', problems.join('; '), { problems })
  const checked = input as RemoteInput
  if (checked.kind === 'key') checked.key = canonicalKey(checked.key)
  const keyProblem = checked.kind === 'key' ? remoteKeyProblem(checked.key) : undefined
  if (keyProblem) throw new AppError('INVALID_REQUEST', `input.key: ${keyProblem}`, { field: 'key' })
  if (checked.kind === 'type' && (checked.x === undefined) !== (checked.y === undefined))
    throw new AppError(
      'INVALID_REQUEST',
      'input.x, input.y: give both (the spot to click first) or neither',
      {
        field: checked.x === undefined ? 'x' : 'y',
      },
    )
  return checked
}

/**
 * Actions as kept: no screenshot bytes, never a secret's value (the agent sends none; this makes
 * sure), and each pointing at the screenshot of its burst (the first one written at or after it).
 */
export function storedActions(recording: Recording, written: Set<number>): StoredAction[] {
  const sorted = [...written].sort((a, b) => a - b)
  return recording.actions.map(({ screenshot: _, ...a }) => {
    const action: StoredAction = { ...a }
    if (action.secret) delete action.value
    const shot = sorted.find((s) => s >= a.seq)
    if (shot !== undefined) action.shot = shot
    return action
  })
}

/** A password field's value never reaches the store, whatever a driver put in the tree. */
export function withoutSecretValues(snapshot: Snapshot): Snapshot {
  const scrub = (e: UiElement): UiElement => {
    const { value, ...rest } = e
    const secret = e.inputType === 'password'
    return { ...rest, ...(value !== undefined && !secret ? { value } : {}), children: e.children.map(scrub) }
  }
  return { ...snapshot, root: scrub(snapshot.root) }
}
