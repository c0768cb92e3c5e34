import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { normalisePath, parsePattern } from '../../modules/jobs/path-pattern.ts'
import { ENVELOPE_KEY } from '../../modules/teach/model.ts'
import { type TeachResult, teach } from '../../modules/teach/service.ts'
import { mergeInput } from '../../modules/triggers/job-input.ts'
import { checkJsonObject } from '../ui/json-check.ts'

/** What a dashboard form sends to teach: the call a person would otherwise make with curl. */
export interface TeachForm {
  method: string
  /** The path the call is made on: a concrete path or the job's pattern. */
  path: string
  /** The job's pattern, when the form teaches a known job (`deskhook.path`). */
  pattern?: string
  prompt?: string
  desktop?: string
  input: string
  expect?: string
}

export type FormField = 'method' | 'path' | 'prompt' | 'desktop' | 'input' | 'expect'

export type TeachOutcome =
  | { ok: true; result: TeachResult }
  | { ok: false; status: number; field: FormField | null; message: string }

const blank = (s: string | undefined) => {
  const t = s?.trim()
  return t ? t : undefined
}

/** `deskhook.path` → path; `deskhook.expect.total.$type` → expect. */
function fieldOf(member: unknown): FormField | null {
  if (typeof member !== 'string') return null
  const name = member.replace(`${ENVELOPE_KEY}.`, '').split('.')[0]
  return (['method', 'path', 'prompt', 'desktop', 'expect'] as const).find((f) => f === name) ?? null
}

/**
 * Makes the teaching call a form describes, exactly as the trigger host would for the same call:
 * the same envelope, the input with any envelope or `_http` member taken out, and `_http` without
 * headers (a person at the dashboard sends none of a caller's). Bad input comes back as a field
 * and a message for the form, never as an exception.
 */
export function teachFromForm(ctx: AppContext, form: TeachForm): TeachOutcome {
  const input = checkJsonObject(form.input)
  if (!input.ok) return { ok: false, status: 400, field: 'input', message: `Example input: ${input.message}` }
  const expect = checkJsonObject(form.expect ?? '', { optional: true })
  if (!expect.ok)
    return { ok: false, status: 400, field: 'expect', message: `Expected result: ${expect.message}` }
  const path = form.path.trim()
  if (!path)
    return {
      ok: false,
      status: 400,
      field: 'path',
      message: 'Enter the path the job answers on, e.g. /customers',
    }
  const envelope: Record<string, unknown> = { teach: true, method: form.method.toUpperCase() }
  for (const [key, value] of [
    ['prompt', blank(form.prompt)],
    ['desktop', blank(form.desktop)],
    ['path', form.pattern],
  ] as const)
    if (value !== undefined) envelope[key] = value
  if (expect.value) envelope.expect = expect.value
  try {
    // A path without its leading / gets the same message a teaching call would.
    const callPath = path.startsWith('/') ? normalisePath(path) : parsePattern(path, 'path').pattern
    const result = teach(ctx, {
      method: form.method.toUpperCase(),
      path: callPath,
      envelope,
      input: mergeInput({}, input.value).input,
      http: { method: form.method.toUpperCase(), path: callPath, params: {}, headers: {} },
    })
    return { ok: true, result }
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500 || error.status === 401 || error.status === 403)
      throw error
    return { ok: false, status: error.status, field: fieldOf(error.details?.field), message: error.message }
  }
}
