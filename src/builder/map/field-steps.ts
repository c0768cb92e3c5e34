// How a value goes into its control (step 3 of a build, after map-fields.ts chose the control):
// written the way the control wants it (a date split into parts, a picker's format, a caller's
// word mapped to the app's option, a radio picked by the value's name).
import { findMatches, indexTree, renderSelector } from '../../automation/index.ts'
import type { Selector, Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { ScreenControl } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { realOptions, takesCommaList } from './field-scores.ts'
import { fold } from './option-match.ts'
import { optionMap } from './option-value-map.ts'
import {
  booleanOf,
  booleanValueMap,
  isIsoDate,
  nativeDateTemplate,
  partText,
  writtenIn,
} from './value-adapters.ts'

export interface FieldStep {
  step: Step
  control: ScreenControl
  /** The input value it takes, or undefined for a constant the person chose. */
  leaf?: InputLeaf
}

/** What a control is given: an input value, or a constant the person chose. */
export type FieldUse = { leaf?: InputLeaf; constant?: string }

const PART_NAMES = { day: 'day', month: 'month', year: 'year' } as const

/**
 * The steps that put the value into the control, written the way the control wants it. A
 * drop-down or radio value that names no option plainly is matched by meaning (one plausible
 * option is taken and remembered in `valueMap`; several or none are asked about).
 */
export async function fieldSteps(
  session: BuildSession,
  root: UiElement,
  control: ScreenControl,
  use: FieldUse,
  leaves: InputLeaf[],
): Promise<FieldStep[]> {
  const { leaf } = use
  const label = control.label
  const value = leaf ? `{{${leaf.path}}}` : (use.constant ?? '')
  const optional = leaf ? { optional: true } : {}
  const target = () => designSelector(root, control.element, `the “${label}” field`)
  const one = (step: Step): FieldStep[] => [{ step, control, leaf }]
  if (leaf && Array.isArray(leaf.value) && takesCommaList(control)) {
    // The box separates entries with commas: the list goes in so, and a box of picked tokens
    // (a combobox) gets a comma after the last entry too, which makes it a token as well.
    const token = control.kind === 'select'
    session.progress(
      'map',
      `“${label}” separates entries with commas: “${leaf.path}” is typed as its items with commas between them`,
      { input: leaf.path, field: label },
    )
    const template = `{{${leaf.path} | commas}}${token ? ',' : ''}`
    return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value: template })
  }
  switch (control.kind) {
    case 'text': {
      if (leaf && control.datePattern && isIsoDate(leaf.value)) {
        const pattern = control.datePattern
        session.progress('map', `“${label}” shows the format ${pattern}: the date is written that way`, {
          input: leaf.path,
          field: label,
          format: pattern,
        })
        const template = `{{${leaf.path} | date:${pattern}}}`
        return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value: template })
      }
      if (leaf && control.datePattern && writtenIn(leaf.value, control.datePattern))
        session.progress(
          'map',
          `“${leaf.path}” is already written as “${label}” shows dates (${control.datePattern}): it is typed as is`,
          {
            input: leaf.path,
            field: label,
            format: control.datePattern,
          },
        )
      return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value })
    }
    case 'date': {
      // A time, month or week picker takes the caller's value as it is (checked by its shape).
      const kind = control.element.inputType ?? 'date'
      const template = leaf
        ? kind === 'date'
          ? nativeDateTemplate(leaf.path, leaf.value)
          : `{{${leaf.path}}}`
        : value
      const what = kind === 'datetime-local' ? 'date and time' : kind
      if (leaf)
        session.progress('map', `“${label}” is a ${what} input: it takes the ${what} as one value`, {
          input: leaf.path,
          field: label,
        })
      return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value: template })
    }
    case 'date-parts': {
      const parts = control.parts ?? []
      if (leaf)
        session.progress(
          'map',
          `“${label}” is a date in ${parts.length} parts; “${leaf.path}” fills them in the app’s format: ${parts
            .map(
              (p) =>
                `${PART_NAMES[p.part]} ${isIsoDate(leaf.value) ? `“${partText(p.filter, leaf.value)}”` : `(${p.filter})`}`,
            )
            .join(', ')}`,
          { input: leaf.path, field: label, parts: parts.map((p) => ({ part: p.part, filter: p.filter })) },
        )
      return parts.map((part) => {
        const partValue = leaf ? `{{${leaf.path} | ${part.filter}}}` : value
        const partTarget = designSelector(root, part.element, `the ${PART_NAMES[part.part]} of “${label}”`)
        const name = `${part.kind === 'select' ? 'Choose' : 'Fill'} “${label}” (${PART_NAMES[part.part]})`
        const step: Step =
          part.kind === 'select'
            ? { kind: 'select', name, ...optional, target: partTarget, value: partValue }
            : { kind: 'fill', name, ...optional, target: partTarget, value: partValue }
        return { step, control: { ...control, element: part.element }, leaf }
      })
    }
    case 'select': {
      if (!leaf || control.typeahead)
        return one({ kind: 'select', name: `Choose “${label}”`, ...optional, target: target(), value })
      const valueMap = await optionMap(session, control, leaf, realOptions(control))
      if (valueMap === undefined) return []
      return one({
        kind: 'select',
        name: `Choose “${label}”`,
        ...optional,
        target: target(),
        value,
        ...(Object.keys(valueMap).length ? { valueMap } : {}),
      })
    }
    case 'checkbox':
      return one({ kind: 'check', name: `Set “${label}”`, ...optional, target: target(), checked: value })
    case 'radio-group': {
      // A yes/no group takes the caller's true/false (or yes/no) through a map, whatever live calls send.
      const words = leaf && booleanOf(leaf.value) !== undefined ? booleanValueMap(control.options) : undefined
      if (leaf && words) {
        session.progress(
          'map',
          `“${label}” is a yes/no choice: true picks “${words.true}”, false picks “${words.false}”`,
          {
            input: leaf.path,
            field: label,
            valueMap: words,
          },
        )
        return one(radioStep(control, value, optional, words))
      }
      if (!leaf)
        return one(
          radioStep(control, value, optional, undefined, radioSelector(root, control, value, leaves)),
        )
      const valueMap = await optionMap(session, control, leaf, control.options)
      if (valueMap === undefined) return []
      if (Object.keys(valueMap).length) return one(radioStep(control, value, optional, valueMap))
      return one(radioStep(control, value, optional, undefined, radioSelector(root, control, value, leaves)))
    }
  }
}

function radioStep(
  control: ScreenControl,
  value: string,
  optional: { optional?: boolean },
  valueMap: Record<string, string> | undefined,
  target?: Selector,
): Step {
  return {
    kind: 'check',
    name: `Pick “${control.label}”`,
    ...optional,
    target: target ?? {
      fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }],
      description: `the “${control.label}” choice`,
    },
    checked: true,
    ...(valueMap ? { valueMap } : {}),
  }
}

/** The radio named by the value, matched case-insensitively unless that would be ambiguous. */
function radioSelector(
  root: UiElement,
  control: ScreenControl,
  value: string,
  leaves: InputLeaf[],
): Selector {
  const description = `the “${control.label}” choice`
  const leaf = leaves.find((l) => `{{${l.path}}}` === value)
  const scope = leaf ? nestedScope(leaf.path, leaf.value) : {}
  const index = indexTree(root)
  for (const match of ['contains', 'exact'] as const) {
    const selector: Selector = {
      fingerprints: [{ by: 'role', role: 'radio', name: value, match }],
      description,
    }
    const found = findMatches(index, renderSelector(selector, scope).fingerprints[0]!)
    if (found.length === 1 && control.radios.includes(found[0]!)) return selector
  }
  // The input's value names no radio uniquely as written (accents, say): the exact name, which the
  // runner compares without case or accents. Never a fixed radio, which live calls could not change.
  if (leaf) return { fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }], description }
  // A constant the person chose: that radio itself.
  const radio = control.radios.find((r) => fold(r.name) === fold(value))
  return radio
    ? designSelector(root, radio, description)
    : { fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }], description }
}

/** A scope in which `path` has `value` ("a.b" → {a: {b: value}}). */
function nestedScope(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>(
      (inner, key, i, all) => ({ [key]: i === all.length - 1 ? value : inner }),
      {},
    )
}
