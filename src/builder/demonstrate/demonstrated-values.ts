// What a demonstration's typed and chosen values stand for: the sample's own values become
// templates (`{{firstName}}`), other values stay as typed, and a value only like a sample value
// ("ACME-42" for the sample's "acme-42", "Ada Lovelace" for "Ada" and "Lovelace") is a doubt the
// person settles. Addresses typed into the address bar get the sample's values templated the way
// url-route.ts writes them. Secret fields are never recorded: they take the job's stored secrets.
import { collapse, foldText } from '../../automation/text-match.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { BuildRequest } from '../contract.ts'
import { safeDecode, safeUrl } from '../explore/url-route.ts'
import { escapeRegex } from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { booleanOf } from '../map/value-adapters.ts'
import { BuildFailure } from '../session.ts'
import { signInForm } from '../sign-in/sign-in.ts'
import { textSimilarity } from '../words.ts'

export interface SampleValue {
  path: string
  value: string
}

/** A template other than the value itself, and how a person reads it. */
export interface Choice {
  template: string
  label: string
}

export type ValueReading =
  | { kind: 'sample'; template: string; paths: string[] }
  | { kind: 'constant' }
  | { kind: 'doubtful'; choices: Choice[]; paths: string[] }

/** A number as a box that takes numbers shows it. */
const NUMBER = /^-?\d+(\.\d+)?$/

/** Sample values shorter than this are found inside other text only by accident. */
const MIN_INSIDE = 3

/**
 * What a typed (`fill`) or chosen (`select`) value is: one of the sample's values (equal but for
 * spaces; a chosen option also but for case, as the runner matches options that way), a constant,
 * or doubtful: equal but for case when typed, holding a sample value, or held in one.
 */
export function readValue(
  value: string,
  values: SampleValue[],
  how: 'fill' | 'select',
  field: string,
  numeric = false,
): ValueReading {
  const typed = collapse(value)
  if (typed === '') return { kind: 'constant' }
  const closest = (found: SampleValue[]) =>
    [...found].sort((a, b) => textSimilarity(b.path, field) - textSimilarity(a.path, field))[0]!
  const equal = values.filter((v) => collapse(v.value) === typed)
  if (equal.length) return sample(closest(equal))
  // A box that takes numbers holds the same number however it is written ("024" typed after the
  // box's own 0 is 24); a text box's "024" may be a code, and stays apart.
  const same =
    numeric && NUMBER.test(typed)
      ? values.filter((v) => NUMBER.test(v.value) && Number(v.value) === Number(typed))
      : []
  if (same.length) return sample(closest(same))
  const folded = values.filter((v) => foldText(v.value) === foldText(typed))
  if (folded.length && how === 'select') return sample(closest(folded))
  const choices: Choice[] = []
  const paths: string[] = []
  if (folded.length) {
    const v = closest(folded)
    choices.push({ template: `{{${v.path}}}`, label: `The sample’s ${v.path} (“${v.value}” this time)` })
    paths.push(v.path)
  }
  // The sample's values inside the text, longest first: "ACME-{{accountCode}}".
  let template = typed
  const inside: SampleValue[] = []
  for (const v of [...values].sort((a, b) => b.value.length - a.value.length)) {
    const shown = collapse(v.value)
    if (shown.length < MIN_INSIDE || folded.includes(v)) continue
    const replaced = replaceOutsideTemplates(template, shown, `{{${v.path}}}`)
    if (replaced === template) continue
    template = replaced
    inside.push(v)
  }
  if (inside.length) {
    choices.push({
      template,
      label: `The sample’s ${inside.map((v) => v.path).join(' and ')} in it: “${template}”`,
    })
    paths.push(...inside.map((v) => v.path))
  }
  // Part of a sample value ("Ada" of "Ada Lovelace"): that value, whole, every time?
  if (typed.length >= MIN_INSIDE)
    for (const v of values) {
      if (paths.includes(v.path) || !foldText(v.value).includes(foldText(typed))) continue
      choices.push({ template: `{{${v.path}}}`, label: `The sample’s ${v.path} (all of “${v.value}”)` })
      paths.push(v.path)
    }
  return choices.length ? { kind: 'doubtful', choices, paths } : { kind: 'constant' }
}

/** The text with `shown` (any case) replaced, except inside placeholders already put in. */
function replaceOutsideTemplates(text: string, shown: string, by: string): string {
  const pattern = new RegExp(escapeRegex(shown), 'gi')
  return text
    .split(/(\{\{[^}]*\}\})/)
    .map((piece) => (piece.startsWith('{{') ? piece : piece.replace(pattern, by)))
    .join('')
}

function sample(v: SampleValue): ValueReading {
  return { kind: 'sample', template: `{{${v.path}}}`, paths: [v.path] }
}

/**
 * The sample's yes/no value a check box stands for: the boolean whose key names the box, or the
 * only boolean of the sample when the box is the only one set (`vip: true` and “VIP customer”).
 */
export function booleanLeaf(
  leaves: InputLeaf[],
  checked: boolean,
  label: string,
  onlyCheck: boolean,
): InputLeaf | undefined {
  const booleans = leaves.filter((l) => l.source !== 'header' && typeof booleanOf(l.value) === 'boolean')
  const same = booleans.filter((l) => booleanOf(l.value) === checked)
  const named = same
    .map((l) => ({ l, score: textSimilarity(l.key, label) }))
    .filter((x) => x.score >= 0.5)
    .sort((a, b) => b.score - a.score)[0]?.l
  if (named) return named
  return onlyCheck && booleans.length === 1 && same.length === 1 ? same[0] : undefined
}

const PASSWORD = /pass(word|phrase|code)?|passwort|mot de passe|contraseña|\bpin\b/i

/**
 * `{{$secrets.NAME}}` for a secret field: the job's stored secret whose name fits the field (a
 * password box takes the secret named like a password). Without one the build stops and says how
 * to store it; what was typed was never recorded, so it cannot be used.
 */
export function secretTemplate(
  request: BuildRequest,
  field: UiElement | undefined,
  label: string,
  screen: UiElement,
): { template: string; name: string } {
  const names = request.secretNames ?? []
  const says = `${label} ${field?.name ?? ''} ${field?.placeholder ?? ''} ${field?.automationId ?? ''}`
  const scored = names
    .map((name) => ({
      name,
      score: Math.max(
        textSimilarity(name, label),
        PASSWORD.test(says) && PASSWORD.test(name) ? 1 : 0,
        field?.inputType === 'password' && PASSWORD.test(name) ? 1 : 0,
      ),
    }))
    .filter((s) => s.score >= 0.5)
    .sort((a, b) => b.score - a.score)
  const best = scored[0]
  if (best) return { template: `{{$secrets.${best.name}}}`, name: best.name }
  const { method, path } = request.route ?? { method: 'METHOD', path: '/path' }
  // A password is a way in, wherever it is typed.
  const credential =
    signInForm(screen) !== undefined || PASSWORD.test(says) || field?.inputType === 'password'
  throw new BuildFailure(
    credential ? 'SIGN_IN_REQUIRED' : 'FIELD_NOT_MAPPED',
    `The demonstration typed into the secret field “${label}”. What is typed there is never recorded, ` +
      `so the job needs it as a stored secret${names.length ? ` (it has ${names.map((n) => `“${n}”`).join(', ')}, none named for this field)` : ''}: ` +
      `deskhook jobs secret set ${method} ${path} ${suggestedName(label)}, then teach again.`,
  )
}

/**
 * The caller's own password for a secret field typed into on a form that is not a sign-in (a new
 * account's "Password" and its "Confirm Password"): the one input the sample names a password.
 * The job's stored secrets are for signing in; giving a new account the admin's would answer
 * every call as if it had worked.
 */
export function callersSecret(leaves: InputLeaf[], screen: UiElement): InputLeaf | undefined {
  if (signInForm(screen) !== undefined) return undefined
  const named = leaves.filter(
    (l) =>
      l.source !== 'header' && typeof l.value === 'string' && PASSWORD.test(l.path.split('.').at(-1) ?? ''),
  )
  return named.length === 1 ? named[0] : undefined
}

function suggestedName(label: string): string {
  if (PASSWORD.test(label) || label === '') return 'password'
  const words = label.toLowerCase().match(/[a-z0-9]+/g) ?? []
  return words.join('_') || 'password'
}

/**
 * An address the person opened, with the sample's values where the address holds them exactly
 * (a path segment or a query value), relative to the app when it is on the app's own site.
 */
export function addressTemplate(
  url: string,
  values: SampleValue[],
  appUrl: string | undefined,
): { template: string; paths: string[] } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { template: url, paths: [] }
  }
  const paths: string[] = []
  const find = (text: string) => values.find((v) => v.value !== '' && v.value === text)
  const segments = parsed.pathname.split('/').map((segment) => {
    const v = find(safeDecode(segment))
    if (!v) return segment
    paths.push(v.path)
    return `{{${v.path}}}`
  })
  let search = parsed.search
  const params = [...parsed.searchParams]
  if (params.some(([, value]) => find(value))) {
    search = `?${params
      .map(([key, value]) => {
        const v = find(value)
        if (v) paths.push(v.path)
        return `${encodeURIComponent(key)}=${v ? `{{${v.path}}}` : encodeURIComponent(value)}`
      })
      .join('&')}`
  }
  const local = `${segments.join('/')}${search}${parsed.hash}`
  const home = appUrl ? safeUrl(appUrl) : undefined
  return { template: home && home.origin === parsed.origin ? local : `${parsed.origin}${local}`, paths }
}

/** Two addresses of the same page (a `#fragment` apart at most). */
export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false
  return a.split('#')[0] === b.split('#')[0]
}
