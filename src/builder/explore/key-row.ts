// Records by key (docs/builder.md, "Records by key"): a task that changes or removes "the entry
// with this title" acts on that record, never on whichever row happens to be selected. When the
// first screen lists records and one row shows a value of the sample exactly in a cell of its own,
// that row is picked before exploring goes anywhere (an "Edit Entry…" on a tool bar or in a menu
// acts on the row picked), and every run picks the row showing the caller's value the same way.
import { indexTree } from '../../automation/index.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { actionOf } from '../words.ts'

/** Tasks that act on a record that already exists. */
const ON_A_RECORD = new Set([actionOf('edit'), actionOf('delete')].filter(Boolean))
const LISTS = new Set<UiElement['role']>(['table', 'tree', 'list'])
const norm = (text: string) => collapse(text).toLowerCase()

/** The click that picks the row showing the sample's key, when the screen lists records and one shows it. */
export function keyRowStep(
  root: UiElement,
  leaves: InputLeaf[],
  reading: PromptReading,
): { step: Step; key: InputLeaf } | undefined {
  if (!reading.verb || !ON_A_RECORD.has(reading.verb)) return undefined
  const index = indexTree(root)
  const lists = index.all.filter((e) => LISTS.has(e.role))
  for (const leaf of leaves) {
    if (typeof leaf.value !== 'string' || leaf.source === 'header' || leaf.value.trim().length < 2) continue
    const want = norm(leaf.value)
    for (const list of lists) {
      const rows = indexTree(list).all.filter(
        (e) => e.role === 'row' || e.role === 'listitem' || e.role === 'treeitem',
      )
      if (rows.length < 2) continue
      const cells = indexTree(list).all.filter(
        (e) => (e.role === 'cell' || e.role === 'listitem' || e.role === 'treeitem') && norm(e.name) === want,
      )
      if (cells.length !== 1) continue
      const role = cells[0]!.role
      const step: Step = {
        kind: 'click',
        name: `Pick the ${role === 'cell' ? 'row' : 'item'} showing “{{${leaf.path}}}”`,
        target: {
          fingerprints: [{ by: 'role', role, name: `{{${leaf.path}}}`, match: 'exact' }],
          description: `the ${role} showing the caller’s ${leaf.path}`,
        },
      }
      return { step, key: leaf }
    }
  }
  return undefined
}
