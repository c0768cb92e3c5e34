// An output given as a literal in the sample's `expect` ("queue": "IT Support"): read where the
// screen shows just that value, else from the text that holds it (docs/builder.md, "Outputs").
import { ancestors } from '../../automation/element-tree.ts'
import { indexTree } from '../../automation/index.ts'
import { collapse } from '../../automation/text-match.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { extractPattern, generaliseText } from '../generalise.ts'
import { designPlaceSelector, designSelector, designTextSelector } from '../selector-design.ts'
import type { OutputContext, ReadStep } from './outputs.ts'
import { rowOrPlace } from './row-reads.ts'

const NOT_VALUES = new Set<UiRole>(['button', 'link', 'textbox', 'combobox', 'option', 'checkbox', 'radio'])
const FIELDS = new Set<UiRole>(['textbox', 'combobox', 'spinbutton'])
const norm = (text: string) => collapse(text).toLowerCase()

/** An exact expected value: the element showing just it, else a text containing it. */
export function exactRead(ctx: OutputContext, key: string, expected: unknown): ReadStep | undefined {
  const want = norm(String(expected))
  const fresh = new Set(ctx.ending.appeared)
  const ordered = [...ctx.ending.appeared, ...indexTree(ctx.after).all.filter((e) => !fresh.has(e))]
  const candidates = ordered.filter((e) => e !== ctx.after && !NOT_VALUES.has(e.role))
  // A record's value may be shown as a link to its own page ("Queue: IT Support"): one such link
  // among what appeared, or the one right after a caption (the same link in a menu the screen
  // showed before does not make it old), when no plain text shows it.
  const named = (e: UiElement) => e.role === 'link' && norm(e.name) === want
  const links = ctx.ending.appeared.filter(named)
  const captioned = indexTree(ctx.after).all.filter((e) => named(e) && afterCaption(ctx.after, e))
  // A record's form shows its values in its fields ("City:" holding "Whitby"): a wrapper named
  // only by the field inside it is that field, and a field holding just the value counts when no
  // text shows it. A field holding what the caller typed (the search box) is no answer.
  const typed = ctx.inputs.some((i) => norm(i) === want)
  const holds = (e: UiElement) => FIELDS.has(e.role) && norm(e.value ?? '') === want && !typed
  const found =
    candidates.find((e) => norm(e.name) === want) ??
    (links.length === 1 ? links[0] : captioned.length === 1 ? captioned[0] : undefined)
  const whole = (found && indexTree(found).all.find(holds)) ?? found ?? ordered.find(holds)
  if (whole) {
    // A field is found by its label, which stays; other values by their place.
    const place = FIELDS.has(whole.role)
      ? designSelector(ctx.after, whole, `the “${key}” value`)
      : designPlaceSelector(ctx.after, whole, `the “${key}” value`)
    const target = rowOrPlace(ctx, whole, place, key)
    return target && { kind: 'read', name: `Read “${key}”`, target, into: key }
  }
  const inside = ctx.ending.appeared.find((e) => !NOT_VALUES.has(e.role) && norm(e.name).includes(want))
  if (!inside) return undefined
  const value = inside.name.slice(
    norm(inside.name).indexOf(want),
    norm(inside.name).indexOf(want) + want.length,
  )
  const { pattern } = generaliseText(inside.name, [value, ...ctx.inputs])
  return {
    kind: 'read',
    name: `Read “${key}”`,
    target: designTextSelector(ctx.after, inside, { pattern, match: 'regex' }, `the text “${inside.name}”`),
    into: key,
    extract: extractPattern(inside.name, value, ctx.inputs),
  }
}

/** The nearest named element before it (within a few) is a caption: short words ending in a colon. */
function afterCaption(root: UiElement, element: UiElement): boolean {
  const index = indexTree(root)
  const holders = new Set(ancestors(index, element))
  const at = index.order.get(element) ?? 0
  for (let i = at - 1; i >= Math.max(0, at - 6); i--) {
    const before = index.all[i]!
    if (before.name.trim() === '' || holders.has(before)) continue
    return /^[^:\d]{1,40}:\s*$/.test(before.name.trim())
  }
  return false
}
