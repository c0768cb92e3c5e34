// Day, month and year boxes side by side read as one date control (see screen.ts).
import type { TreeIndex } from '../automation/element-tree.ts'
import type { UiElement } from '../protocol/elements.ts'
import { type DatePart, datePartOf, partFilter, partOfOptions } from './map/value-adapters.ts'
import type { ScreenControl } from './screen.ts'

const NATIVE_DATE_TYPES = new Set(['date', 'datetime-local', 'month', 'week', 'time'])

/**
 * Three boxes or lists side by side for the day, month and year of one date (in any order)
 * become one `date-parts` control named by the caption before the group ("Visit date").
 */
export function mergeDateParts(
  index: TreeIndex,
  controls: ScreenControl[],
  captionOf: (element: UiElement) => string,
): ScreenControl[] {
  const out: ScreenControl[] = []
  for (let i = 0; i < controls.length; i++) {
    const trio = controls.slice(i, i + 3)
    const parts = trio.length === 3 ? trio.map(partOf) : []
    const kinds = new Set(parts)
    if (kinds.size === 3 && !kinds.has(undefined) && together(index, trio)) {
      const first = trio[0]!
      const caption = captionOf(first.element)
      const label = caption || trio.map((c) => c.label).join(' / ')
      out.push({
        key: '',
        kind: 'date-parts',
        element: first.element,
        radios: [],
        label,
        names: caption ? [caption] : [label],
        nameSources: caption ? { [caption]: 'the text before it,' } : {},
        options: [],
        required: trio.some((c) => c.required),
        shape: 'date',
        parts: trio.map((c, n) => ({
          part: parts[n]!,
          element: c.element,
          kind: c.kind === 'select' ? 'select' : 'text',
          options: c.options,
          filter: partFilter(parts[n]!, c.options, c.element.placeholder ?? c.element.name),
        })),
      })
      i += 2
      continue
    }
    out.push(controls[i]!)
  }
  return out
}

function partOf(control: ScreenControl): DatePart | undefined {
  if (control.kind !== 'select' && control.kind !== 'text') return undefined
  const named = [control.element.name, control.element.placeholder ?? '', control.element.automationId ?? '']
  return named.map(datePartOf).find(Boolean) ?? partOfOptions(control.options)
}

/** Parts of one date share a container (their parent, or its parent for wrapped boxes). */
function together(index: TreeIndex, trio: ScreenControl[]): boolean {
  const near = (c: ScreenControl) => {
    const parent = index.parent.get(c.element)
    return [parent, parent && index.parent.get(parent)]
  }
  const [a, b, c] = trio.map(near)
  return a!.some((p) => p && b!.includes(p) && c!.includes(p))
}

/**
 * The inner day/month/year spin buttons of a native date input, when this element is that input
 * (its HTML type says so, or it holds exactly such parts and Chromium's "Show date picker" button).
 */
export function nativeDateParts(element: UiElement): UiElement[] | undefined {
  if (element.inputType && NATIVE_DATE_TYPES.has(element.inputType))
    return element.children.flatMap((c) => [c, ...c.children])
  if (element.role !== 'generic' && element.role !== 'textbox') return undefined
  const spins = element.children.filter((c) => c.role === 'spinbutton')
  const parts = new Set(spins.map((s) => datePartOf(s.name)))
  const picker = element.children.some((c) => c.role === 'button' && /date picker/i.test(c.name))
  if (spins.length === 3 && parts.has('day') && parts.has('month') && parts.has('year') && picker)
    return element.children
  return undefined
}

/** An inner part of a native date input that has no element of its own to fill (e.g. in a bare table cell). */
export function isDateInternal(index: TreeIndex, element: UiElement): boolean {
  if (element.role !== 'spinbutton' || !datePartOf(element.name)) return false
  const siblings = index.parent.get(element)?.children ?? []
  return siblings.some((c) => c.role === 'button' && /date picker/i.test(c.name))
}
