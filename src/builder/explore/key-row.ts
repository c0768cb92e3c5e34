// Records by key (docs/builder.md, "Records looked up by a key"): a task that changes or removes
// "the entry with this title" acts on that record, never on whichever row happens to be selected.
// When the first screen lists records and one row shows a value of the sample exactly, under a
// column named after that value's key ("Title" for the title), that row is picked before exploring
// goes anywhere (an "Edit Entry…" on a tool bar or in a menu acts on the row picked), and every
// run picks the row showing the caller's value the same way.
import { indexTree } from '../../automation/index.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { columnOf } from '../selector-design.ts'
import { actionOf, stems } from '../words.ts'

/** Tasks that act on a record that already exists. */
const ON_A_RECORD = new Set([actionOf('edit'), actionOf('delete')].filter(Boolean))
const LISTS = new Set<UiElement['role']>(['table', 'tree'])
const norm = (text: string) => collapse(text).toLowerCase()

/** The click that picks the row showing the sample's key, when the screen lists records and one shows it. */
export function keyRowStep(
  root: UiElement,
  leaves: InputLeaf[],
  reading: PromptReading,
): { step: Step; key: InputLeaf } | undefined {
  if (!reading.verb || !ON_A_RECORD.has(reading.verb)) return undefined
  const lists = indexTree(root).all.filter((e) => LISTS.has(e.role))
  // The key is what the prompt picks the record by ("the entry with this title"); else any value
  // but what the task changes ("change the username": the username is the new value).
  const said = [...reading.text.matchAll(/\bwith (?:this|that|the|a|the given|a given) (\p{L}+)/giu)].flatMap(
    (m) => stems(m[1]!),
  )
  for (const leaf of leaves) {
    if (typeof leaf.value !== 'string' || leaf.source === 'header' || leaf.value.trim().length < 2) continue
    const want = norm(leaf.value)
    const named = stems(leaf.path.split('.').at(-1) ?? '')
    const isKey = said.length
      ? named.some((w) => said.includes(w))
      : !named.every((w) => reading.object.includes(w))
    if (!isKey) continue
    for (const list of lists) {
      const rows = indexTree(list).all.filter((e) => e.role === 'row')
      if (rows.length < 3 || named.length === 0) continue
      const cells = indexTree(list).all.filter((e) => e.role === 'cell' && norm(e.name) === want)
      if (cells.length !== 1) continue
      // The value is the key only under a column named after it ("Title" for the title): a new
      // value that happens to show in another column ("alice" as some entry's user name) is not.
      const column = columnOf(root, cells[0]!)
      if (!column || !named.every((w) => stems(column).includes(w))) continue
      const step: Step = {
        kind: 'click',
        name: `Pick the row whose “${column}” is “{{${leaf.path}}}”`,
        target: {
          fingerprints: [
            {
              by: 'inRow',
              rowText: `{{${leaf.path}}}`,
              rowMatch: 'exact',
              role: 'cell',
              name: `{{${leaf.path}}}`,
              match: 'exact',
              column,
            },
          ],
          description: `the “${column}” cell showing the caller’s ${leaf.path}`,
        },
      }
      return { step, key: leaf }
    }
  }
  return undefined
}
