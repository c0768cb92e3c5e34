import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { MASK } from './scrub.ts'

/**
 * Secret inputs: members of a job's input (`password`, `login.pin`) whose values a caller sends
 * with each call and that must never be stored, logged or sent anywhere but the agent running the
 * call. The stored input holds MASK there; the values wait in this process's memory until the run
 * is dispatched and are forgotten when it ends. (A taught sample's are sealed instead, for the
 * builder to verify it again: sample-secrets.ts.)
 */

/** A dotted path of input member names, as `deskhook.secrets` lists them. */
const PATH = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}(\.[A-Za-z_$][A-Za-z0-9_$-]{0,63}){0,7}$/
export const SECRET_INPUT_PATH_PATTERN = PATH.source

export function checkSecretInputPath(path: string, field: string): void {
  if (!PATH.test(path))
    throw new AppError(
      'INVALID_ENVELOPE',
      `${field}: ${JSON.stringify(path)} is not an input member path such as password or login.pin`,
      { field },
    )
}

/** The paths of both lists, each once, in order. */
export function mergeSecretInputs(current: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...current, ...added])]
}

export type SecretInputValues = Record<string, unknown>

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The input with each secret path's value replaced by MASK, and the values taken out. */
export function splitSecretInputs(
  input: Record<string, unknown>,
  paths: readonly string[],
): { masked: Record<string, unknown>; values: SecretInputValues } {
  const values: SecretInputValues = {}
  if (paths.length === 0) return { masked: input, values }
  const masked = structuredClone(input)
  for (const path of paths) {
    const keys = path.split('.')
    let at: unknown = masked
    for (const k of keys.slice(0, -1)) at = isObject(at) ? at[k] : undefined
    const last = keys[keys.length - 1]!
    if (!isObject(at) || !(last in at) || at[last] === null || at[last] === undefined) continue
    values[path] = at[last]
    at[last] = MASK
  }
  return Object.keys(values).length ? { masked, values } : { masked: input, values }
}

/** The input as the caller sent it: the held values put back where MASK stands. */
export function restoreSecretInputs(
  masked: Record<string, unknown>,
  values: SecretInputValues,
): Record<string, unknown> {
  const paths = Object.keys(values)
  if (paths.length === 0) return masked
  const input = structuredClone(masked)
  for (const path of paths) {
    const keys = path.split('.')
    let at: unknown = input
    for (const k of keys.slice(0, -1)) at = isObject(at) ? at[k] : undefined
    if (isObject(at)) at[keys[keys.length - 1]!] = values[path]
  }
  return input
}

/** Whether a stored input still stands in for a secret value (its values were held elsewhere). */
export function hasMaskedSecretInput(input: Record<string, unknown>, paths: readonly string[]): boolean {
  return paths.some((path) => {
    let at: unknown = input
    for (const k of path.split('.')) at = isObject(at) ? at[k] : undefined
    return at === MASK
  })
}

/**
 * The strings to mask wherever they occur in what a run reports (a typed password echoed in a
 * step result or an error): each value's text and, for an object or array, its leaves'. Values of
 * one or two characters would mangle every word they occur in and are left out.
 */
export function secretInputTexts(values: SecretInputValues): Record<string, string> {
  const out: Record<string, string> = {}
  let n = 0
  const add = (v: unknown) => {
    if (typeof v === 'string' || typeof v === 'number') {
      const text = String(v)
      if (text.length >= 3) out[`$input${n++}`] = text
    } else if (Array.isArray(v)) v.forEach(add)
    else if (isObject(v)) Object.values(v).forEach(add)
  }
  Object.values(values).forEach(add)
  return out
}

const held = new WeakMap<AppContext, Map<string, SecretInputValues>>()

function heldFor(ctx: AppContext): Map<string, SecretInputValues> {
  let map = held.get(ctx)
  if (!map) {
    map = new Map()
    held.set(ctx, map)
  }
  return map
}

/** Keeps an accepted execution's secret values in memory until its run ends. */
export function holdSecretInputs(ctx: AppContext, executionId: string, values: SecretInputValues): void {
  if (Object.keys(values).length) heldFor(ctx).set(executionId, values)
}

/** The held values of an execution; undefined when none were held (or this process restarted). */
export function heldSecretInputs(ctx: AppContext, executionId: string): SecretInputValues | undefined {
  return held.get(ctx)?.get(executionId)
}

export function forgetSecretInputs(ctx: AppContext, executionId: string): void {
  held.get(ctx)?.delete(executionId)
}
