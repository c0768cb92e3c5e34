// An automation's steps as sentences a person reads on the job page ("Click “Save”",
// "Type {email} into “Email”"). Every step kind and condition of src/protocol/automation.ts has a
// wording here; the exhaustive switches make the compiler point at a new kind until it has one.
import type {
  AppSpec,
  Condition,
  Fingerprint,
  Selector,
  Step,
  Template,
  TextMatch,
} from '../../protocol/automation.ts'

const q = (text: string) => `“${text}”`

/** `{{customer.email}}` → `{customer.email}`; `{{$secrets.pw}}` → `{secret pw}`; fallbacks kept. */
export function templateInWords(template: Template): string {
  return template.replace(/\{\{([^{}]*)\}\}/g, (_all, source: string) => {
    const [pathPart = '', ...fallback] = source.split('??')
    const path = pathPart.trim().replace(/\s*\|\s*/g, ' | ')
    const named = path.startsWith('$secrets.') ? `secret ${path.slice('$secrets.'.length)}` : path
    return fallback.length ? `{${named}, else ${fallback.join('??').trim()}}` : `{${named}}`
  })
}

function matched(text: Template, match: TextMatch | undefined, exactByDefault = true): string {
  const words = templateInWords(text)
  switch (match ?? (exactByDefault ? 'exact' : 'contains')) {
    case 'exact':
      return q(words)
    case 'same':
      return `${q(words)} (any case)`
    case 'contains':
      return `containing ${q(words)}`
    case 'regex':
      return `matching /${words}/`
  }
}

function fingerprintInWords(f: Fingerprint): string {
  switch (f.by) {
    case 'role':
      return f.match && f.match !== 'exact'
        ? `the ${f.role} ${matched(f.name, f.match)}`
        : q(templateInWords(f.name))
    case 'label':
      return q(templateInWords(f.label))
    case 'text':
      return f.match && f.match !== 'exact'
        ? `the text ${matched(f.text, f.match)}`
        : q(templateInWords(f.text))
    case 'inRow': {
      const shows = `the row showing ${q(templateInWords(f.rowText))}${f.rowAlso === undefined ? '' : ` and ${q(templateInWords(f.rowAlso))}`}`
      if (f.column !== undefined) return `the ${q(templateInWords(f.column))} ${f.role} of ${shows}`
      return `${f.match && f.match !== 'exact' ? `the ${f.role} ${matched(f.name, f.match)}` : q(templateInWords(f.name))} in ${shows}`
    }
    case 'automationId':
      return `#${f.ids.map(templateInWords).join(' › ')}`
    case 'path':
      return f.path.map((s) => `${s.role} ${s.index + 1}`).join(' › ')
  }
}

/**
 * The element a selector points at, named the way the screen shows it: the first fingerprint that
 * carries a visible name, else the selector's own description, else its id or tree path.
 */
export function selectorInWords(selector: Selector): string {
  const named = selector.fingerprints.find((f) => f.by !== 'automationId' && f.by !== 'path')
  if (named) return fingerprintInWords(named)
  if (selector.description) return selector.description
  return fingerprintInWords(selector.fingerprints[0]!)
}

export function conditionInWords(c: Condition): string {
  switch (c.kind) {
    case 'appears':
      return `${selectorInWords(c.target)} appears`
    case 'disappears':
      return `${selectorInWords(c.target)} disappears`
    case 'dialog':
      return c.text ? `a dialog ${matched(c.text, c.match, false)} shows` : 'a dialog shows'
    case 'text':
      return `the text ${matched(c.text, c.match, false)} shows`
    case 'anyOf':
      return c.conditions.map(conditionInWords).join(', or ')
  }
}

export function appInWords(app: AppSpec | undefined): string {
  if (!app) return 'the app'
  if (app.url) return templateInWords(app.url)
  if (app.executable) return app.executable
  if (app.titleContains) return `the window titled ${matched(app.titleContains, 'contains')}`
  if (app.processName) return app.processName
  return 'the app'
}

function clickVerb(step: Extract<Step, { kind: 'click' }>): string {
  const times = step.clickCount === 2 ? 'Double-click' : step.clickCount === 3 ? 'Triple-click' : 'Click'
  return step.button === 'right' ? (times === 'Click' ? 'Right-click' : `${times} (right button)`) : times
}

const mapping = (map: Record<string, string> | undefined) =>
  map && Object.keys(map).length
    ? ` (${Object.entries(map)
        .map(([from, to]) => `${q(from)} means ${q(to)}`)
        .join(', ')})`
    : ''

function readInWords(step: Extract<Step, { kind: 'read' }>): string {
  const into = ` as ${step.into}`
  const extract = step.extract ? `, keeping the part matching /${step.extract}/` : ''
  if (step.source === 'url') return `Read the page address${into}${extract}`
  const target = step.target ? selectorInWords(step.target) : 'the page'
  if (step.source === 'rows') {
    const columns = step.columns ? ` (columns ${Object.values(step.columns).map(q).join(', ')})` : ''
    return `Read the rows of ${target}${columns}${into}`
  }
  return `Read ${target}${into}${extract}`
}

/** The sentence for one step, without its conditions (see stepInWords). */
function actionInWords(step: Step, app: AppSpec | undefined): string {
  switch (step.kind) {
    case 'launch':
      return `Open ${appInWords(step.app ?? app)}`
    case 'focus':
      if (step.target) return `Focus ${selectorInWords(step.target)}`
      return `Bring ${appInWords(step.window ?? app)} to the front`
    case 'click':
      return `${clickVerb(step)} ${selectorInWords(step.target)}${step.pageWith ? `, turning pages with ${selectorInWords(step.pageWith)} until it shows` : ''}`
    case 'fill':
      return `Type ${templateInWords(step.value)} into ${selectorInWords(step.target)}`
    case 'select':
      return `Choose ${templateInWords(step.value)} in ${selectorInWords(step.target)}${mapping(step.valueMap)}`
    case 'navigate':
      return `Go to ${templateInWords(step.url)}`
    case 'check': {
      const target = selectorInWords(step.target)
      if (step.checked === true) return `Tick ${target}`
      if (step.checked === false) return `Untick ${target}`
      return `Set ${target} to ${templateInWords(step.checked)}${mapping(step.valueMap)}`
    }
    case 'keys':
      return `Press ${step.keys}${step.target ? ` in ${selectorInWords(step.target)}` : ''}`
    case 'wait':
      return `Wait until ${conditionInWords(step.until)}`
    case 'read':
      return readInWords(step)
    case 'branch':
      return step.when
        ? `If ${conditionInWords(step.when)}, finish as ${q(step.scenario)}`
        : `If the ${q(step.scenario)} screen shows, finish as ${q(step.scenario)}`
    case 'assert':
      return `Make sure ${conditionInWords(step.that)}${step.message ? ` (else: ${step.message})` : ''}`
  }
}

/**
 * One step in plain words, with when it runs: "Only if …: click “Save”", "(skipped when …)".
 * `app` is the automation's own, which a launch or focus step without one of its own opens.
 */
export function stepInWords(step: Step, app?: AppSpec): string {
  let words = actionInWords(step, app)
  if (step.onlyIf)
    words = `Only if ${conditionInWords(step.onlyIf)}: ${words[0]!.toLowerCase()}${words.slice(1)}`
  if ('optional' in step && step.optional) words += ' (skipped when the input has no value for it)'
  return words
}
