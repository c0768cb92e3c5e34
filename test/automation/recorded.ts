// Loads the snapshots recorded from the fixture CRM (see snapshots/capture.ts).
import { join } from 'node:path'
import type { Snapshot, UiElement } from '../../src/protocol/elements.ts'

export type Recorded =
  | 'crm-customers'
  | 'crm-new-customer'
  | 'crm-email-required'
  | 'crm-duplicate-dialog'
  | 'crm-created'
  | 'crm-lookup-found'

export async function recorded(name: Recorded): Promise<Snapshot> {
  return (await Bun.file(join(import.meta.dir, 'snapshots', `${name}.json`)).json()) as Snapshot
}

export function all(root: UiElement): UiElement[] {
  return [root, ...root.children.flatMap(all)]
}

export function only(root: UiElement, predicate: (e: UiElement) => boolean): UiElement {
  const found = all(root).filter(predicate)
  if (found.length !== 1) throw new Error(`expected one element, found ${found.length}`)
  return found[0]!
}
