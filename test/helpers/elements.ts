// Element trees written by hand for tests of rules that read a screen: `el(role, name, children,
// extra)` gives each element a fresh ref, no states unless `extra` says so.
import type { UiElement, UiRole } from '../../src/protocol/elements.ts'

let n = 0

export const el = (
  role: UiRole,
  name: string,
  children: UiElement[] = [],
  extra: Partial<UiElement> = {},
): UiElement => ({
  ref: `1:${++n}`,
  role,
  name,
  states: [],
  children,
  ...extra,
})
