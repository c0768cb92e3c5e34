// Secret fields (passwords) in a run's screenshots: the runner blacks them out before a picture
// leaves the machine, so a replay never shows what was typed (or its length in dots).
import type { Driver } from '../protocol/driver.ts'
import type { Bounds, UiElement } from '../protocol/elements.ts'
import { inView } from './act-on-target.ts'

/** A field whose content must never be seen: a password box (any driver maps its own to this). */
export const isSecretField = (e: UiElement): boolean => e.inputType === 'password'

function visit(e: UiElement, each: (e: UiElement) => void): void {
  each(e)
  for (const c of e.children) visit(c, each)
}

/** The boxes of the secret fields at least partly in view in a snapshot. */
export function secretFieldBoxes(root: UiElement): Bounds[] {
  const out: Bounds[] = []
  visit(root, (e) => {
    if (
      isSecretField(e) &&
      e.bounds &&
      e.bounds.width > 0 &&
      e.bounds.height > 0 &&
      inView(e.bounds, root, 'part')
    )
      out.push(e.bounds)
  })
  return out
}

/**
 * The driver as the run's steps use it, noting whether any snapshot showed a secret field: only
 * then does a screenshot cost one more snapshot (to find where the fields are now) and a re-encode.
 * A field is typed into only after a snapshot found it, so none is missed.
 */
export function watchSecretFields(driver: Driver): { driver: Driver; seen: () => boolean } {
  let seen = false
  const watched = new Proxy(driver, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function') return value
      if (prop !== 'snapshot') return value.bind(target)
      return async (...args: unknown[]) => {
        const snapshot = await (value as (...a: unknown[]) => Promise<{ root: UiElement }>).apply(
          target,
          args,
        )
        if (!seen && snapshot?.root)
          visit(snapshot.root, (e) => {
            if (isSecretField(e)) seen = true
          })
        return snapshot
      }
    },
  })
  return { driver: watched, seen: () => seen }
}
