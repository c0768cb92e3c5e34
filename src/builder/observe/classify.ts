// Step 5 of a build, the judgement part: what the submit led to, read from the difference
// between the screen before and after. A new modal dialog is a dialog ending (its message); a
// control turning invalid or an error-like text next to the fields is a validation ending;
// anything else that appeared (a status message, a heading, a table) is a new screen.
import { evaluateCondition, indexTree, openDialogs } from '../../automation/index.ts'
import type { Condition } from '../../protocol/automation.ts'
import type { Snapshot, UiElement, UiRole } from '../../protocol/elements.ts'
import {
  generaliseText,
  nameFromMessage,
  outcomeSignature,
  successName,
  withoutInputs,
} from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { splitWords } from '../words.ts'
import { closedCondition, closedDialog, closedName } from './closed-dialog.ts'
import { lostModifiedMark, savedTitle } from './saved-title.ts'
import { appeared, counterpart, flaggedControls, recounted, within } from './ui-diff.ts'

export type EndingKind = 'dialog' | 'validation' | 'screen'

export interface Ending {
  kind: EndingKind
  /** What the ending says, as shown ("A customer with this email already exists"). */
  message: string
  /** The element showing the message in the after-snapshot, when one shows exactly it. */
  messageElement?: UiElement
  dialog?: UiElement
  /** Everything that appeared, in screen order (for outputs). */
  appeared: UiElement[]
  /** A condition that holds on this ending in every run (numbers and input values generalised). */
  condition: Condition
  /** The ending with numbers and input values blanked: equal for equal outcomes. */
  signature: string
  /** A name for the outcome when its message is the record itself (a new row, a result): not derived from it. */
  name?: string
  /** What must hold just before the submit for the ending to be evidence (a title's "modified" mark before a save). */
  precondition?: { name: string; that: Condition; message: string }
}

const ERROR_WORDS = new Set(
  "required invalid must error errors cannot can't missing please enter failed already wrong incorrect not exists too".split(
    ' ',
  ),
)
/** Words an app uses to say a submit worked. */
const SUCCESS_WORDS = new Set(
  'success successfully saved created added updated changed deleted sent submitted thank thanks'.split(' '),
)
/** classifyEnding on a send's two screens, knowing whether the window went to a new address. */
export function classifySent(
  observed: { before: Snapshot; after: Snapshot },
  fields: UiElement[],
  inputs: string[],
  leaves: InputLeaf[] = [],
): Ending | undefined {
  const { before, after } = observed
  // Only another document: a fragment ("#/orders") or nothing at all is the same page redrawn.
  const page = (url: string | undefined) => url?.split('#')[0]
  const anew =
    page(before.window.url) !== undefined &&
    page(after.window.url) !== undefined &&
    page(after.window.url) !== page(before.window.url)
  return classifyEnding(before.root, after.root, fields, inputs, leaves, anew)
}

const MESSAGE_ROLES = new Set<UiRole>(['status', 'alert'])
const SCREEN_ROLES = new Set<UiRole>(['heading', 'table', 'list', 'group', 'form', 'tabpanel', 'dialog'])

export function classifyEnding(
  before: UiElement,
  after: UiElement,
  fields: UiElement[],
  inputs: string[],
  leaves: InputLeaf[] = [],
  /** The window's address changed: a new page, drawn anew, on which nothing was rewritten in place. */
  anew = false,
): Ending | undefined {
  const fresh = appeared(before, after)
  const finish = (kind: EndingKind, message: string, element: UiElement | undefined, extra = {}): Ending => ({
    kind,
    message,
    ...(element ? { messageElement: element } : {}),
    ...sentenceName(kind, after, element, inputs),
    ...extra,
    appeared: fresh,
    condition: conditionFor(kind, message, element, inputs, leaves),
    signature: outcomeSignature(kind, message, inputs),
  })

  const known = new Set(openDialogs(before).map((d) => `${d.role}:${d.name}`))
  const dialog = openDialogs(after).find((d) => !known.has(`${d.role}:${d.name}`))
  if (dialog) {
    const texts = indexTree(dialog).all.filter((e) => e.role === 'text' && e.name && e.name !== dialog.name)
    const message = dialog.description || texts[0]?.name || dialog.name
    const element = texts.find((t) => t.name === message)
    // A message box's text may begin with its own title ("Error Cannot add an account…"): the
    // scenario is named after the rest.
    const titled =
      dialog.name && message.startsWith(`${dialog.name} `) && message.length > dialog.name.length + 8
    const name = titled ? nameFromMessage(message.slice(dialog.name.length + 1), inputs) : undefined
    return finish('dialog', message, element, { dialog, ...(name ? { name } : {}) })
  }

  const containers = fieldContainers(after, fields)
  const near = fresh.filter(
    (e) =>
      (e.role === 'text' || MESSAGE_ROLES.has(e.role)) &&
      e.name.length <= 150 &&
      containers.some((c) => within(after, c, e)),
  )
  const flagged = flaggedControls(before, after)
  if (flagged.length > 0) {
    const described = flagged.flatMap((f) => (f.newDescription ? [f.newDescription] : []))
    const element = near.find((e) => described.some((d) => d.includes(e.name))) ?? near[0]
    const message = element?.name ?? described[0] ?? `“${flagged[0]!.element.name}” is not accepted`
    return finish('validation', message, element)
  }
  // The app saying it worked ("… was added successfully. You may add another below.") is a
  // success even when it shows the blank form again beside it; only flagged fields outrank it.
  const said = (e: UiElement) => splitWords(withoutInputs(e.name, inputs))
  const praise = fresh.find(
    (e) =>
      (e.role === 'text' || MESSAGE_ROLES.has(e.role) || e.role === 'listitem') &&
      e.name.length <= 300 &&
      said(e).some((w) => SUCCESS_WORDS.has(w)) &&
      !said(e).some((w) => ERROR_WORDS.has(w)),
  )
  if (praise) return finish('screen', praise.name, praise)
  // What the sample itself typed is never evidence of an error: a preview that echoes the
  // user's text ("… does not work") is not a complaint by the app.
  const complaint = near.find((e) =>
    splitWords(withoutInputs(e.name, inputs)).some((w) => ERROR_WORDS.has(w)),
  )
  if (complaint) return finish('validation', complaint.name, complaint)
  // A page that reloads after the submit has no "next to the fields": an alert or status that
  // appeared anywhere and complains ("A note with this title already exists") is the app saying no.
  const alarm = fresh.find(
    (e) =>
      (MESSAGE_ROLES.has(e.role) || e.role === 'text') &&
      e.name.length <= 200 &&
      inAlert(after, e) &&
      splitWords(withoutInputs(e.name, inputs)).some((w) => ERROR_WORDS.has(w)),
  )
  if (alarm) return finish('validation', alarm.name, alarm)

  const index = indexTree(after)
  const inMessage = (e: UiElement) =>
    MESSAGE_ROLES.has(e.role) || [...ancestorsOf(index.parent, e)].some((a) => MESSAGE_ROLES.has(a.role))
  // A text rewritten where it stood with only its numbers changed (a count "1 / 12" that became
  // "1 / 2") is no evidence: its condition held before the submit too, so every run would pass it
  // at once, whatever the submit did. A heading that is the caller's value itself (record "1043"
  // after "1042") is waited for as the next call's value (conditionFor), which did not hold before.
  const own = (e: UiElement) => SCREEN_ROLES.has(e.role) && templateOf(e.name, leaves) !== undefined
  // A page drawn anew (a filter sent as a new address: "9 items" → "3 items") rewrote nothing in
  // place: the driver lets it settle before a run looks, so its count is the new page's, taken
  // when nothing else on it is new.
  const news = fresh.filter((e) => own(e) || !recounted(before, after, e))
  const pick = (from: UiElement[]) =>
    from.find((e) => inMessage(e) && e.role !== 'link' && e.role !== 'button') ??
    from.find((e) => e.role === 'heading') ??
    from.find((e) => SCREEN_ROLES.has(e.role))
  const message = pick(news) ?? (anew ? pick(fresh) : undefined)
  if (message) return finish('screen', message.name, message)
  // A record dialog (a desktop app's "Add contact", a web app's modal form) that closed on its
  // submit: the dialog going away is the ending every run shows; the row it added, if one did,
  // is what it says. Its closing is the condition, since a row's values are the caller's own.
  const closed = closedDialog(before, after, fields, inputs)
  if (closed) {
    const row = fresh.find((e) => ROW_ROLES.has(e.role))
    const bare = closedName(closed, inputs)
    return {
      kind: 'screen',
      message: row?.name ?? `“${bare}” closed`,
      ...(row ? { messageElement: row } : {}),
      appeared: fresh,
      condition: closedCondition(closed, inputs),
      signature: outcomeSignature('screen', `“${bare}” closed`, inputs),
      name: `${bare} done`,
    }
  }
  // A new title is evidence only when the old one did not already show it, else every run would pass
  // (docs/builder.md, "Outputs: what counts as evidence"); one that lost just its "modified" mark is a save.
  if (lostModifiedMark(before.name, after.name))
    return { ...finish('screen', after.name, after), ...savedTitle(before, after, inputs), name: 'Saved' }
  if (after.name !== before.name && !before.name.includes(after.name))
    return finish('screen', after.name, after)
  // A row, node or cell that appeared showing what the caller sent: the record a separate window
  // (a desktop app's non-modal "New Account") added to the list in this one (issue 24 §2).
  const added = fresh.find(
    (e) =>
      (ROW_ROLES.has(e.role) || e.role === 'cell') &&
      inputs.some((v) => v.trim().length >= 2 && e.name.includes(v.trim())),
  )
  if (added) return finish('screen', added.name, added)
  // A heading or button that unfolded (collapsed → expanded) and showed what it held (a record's
  // panel of captions and values): a caption it revealed is the ending, since a caption reads the
  // same for every record.
  // Only a caption that did not show before counts: one that another open panel showed all along
  // would let every run pass whatever the click did, and a value is the sample's record's own.
  if (unfolded(before, after)) {
    for (const shown of news.filter((e) => CAPTION_ROLES.has(e.role))) {
      const ending = finish('screen', shown.name, shown)
      if (!evaluateCondition(before, ending.condition, {}).holds) return ending
    }
  }
  const text =
    news.find((e) => e.role === 'text') ?? (anew ? fresh.find((e) => e.role === 'text') : undefined)
  return text ? finish('screen', text.name, text) : undefined
}

const ROW_ROLES = new Set<UiRole>(['row', 'listitem', 'treeitem'])
const CAPTION_ROLES = new Set<UiRole>(['rowheader', 'columnheader'])

/** Whether a control that was folded (collapsed) is unfolded (expanded) now. */
function unfolded(before: UiElement, after: UiElement): boolean {
  return indexTree(after).all.some((e) => {
    if (!e.states.includes('expanded')) return false
    const was = counterpart(before, e)
    return was !== undefined && was.states.includes('collapsed')
  })
}

/** Containers of the fields in the after-snapshot, up to two levels up (their form and section). */
function fieldContainers(after: UiElement, fields: UiElement[]): UiElement[] {
  const index = indexTree(after)
  const out = new Set<UiElement>()
  for (const field of fields) {
    const now = counterpart(after, field)
    if (!now) continue
    let parent = index.parent.get(now)
    for (let level = 0; parent && level < 2; level++, parent = index.parent.get(parent)) out.add(parent)
  }
  return [...out]
}

function* ancestorsOf(parents: Map<UiElement, UiElement>, element: UiElement) {
  for (let p = parents.get(element); p; p = parents.get(p)) yield p
}

/** A condition that recognises the ending: the dialog's text, the message's text, or the element appearing. */
function conditionFor(
  kind: EndingKind,
  message: string,
  element: UiElement | undefined,
  inputs: string[],
  leaves: InputLeaf[],
): Condition {
  const { pattern, match } = generaliseText(message, inputs, { lead: true })
  if (kind === 'dialog') return { kind: 'dialog', text: pattern, match }
  if (kind === 'screen' && element && SCREEN_ROLES.has(element.role)) {
    // A heading that is the caller's value itself ("Release checklist" for the page
    // "Release_checklist") is waited for as the next call's value, not as any heading at all.
    const own = templateOf(message, leaves)
    return {
      kind: 'appears',
      target: {
        fingerprints: [
          own
            ? { by: 'role', role: element.role, name: own, match: 'exact' }
            : {
                by: 'role',
                role: element.role,
                name: pattern,
                match: match === 'contains' ? 'exact' : match,
              },
        ],
        description: `the “${message}” ${element.role}`,
      },
    }
  }
  return { kind: 'text', text: pattern, match }
}

/** `{{path}}` (or `{{path | spaces}}`) when the text is exactly one input value as the app shows it. */
function templateOf(text: string, leaves: InputLeaf[]): string | undefined {
  const shown = text.trim()
  for (const leaf of leaves) {
    if (typeof leaf.value !== 'string' || leaf.value.trim().length < 3) continue
    if (leaf.value.trim() === shown) return `{{${leaf.path}}}`
    if (leaf.value.includes('_') && leaf.value.trim().replaceAll('_', ' ') === shown)
      return `{{${leaf.path} | spaces}}`
  }
  return undefined
}

/**
 * A message split around a link to the record ("Issue #12 created.", "The item “WID-100” was
 * changed successfully."): the piece found is only a fragment of the sentence that holds it. The
 * outcome is named by that whole sentence, the caller's values left out (docs/builder.md).
 */
function sentenceName(
  kind: EndingKind,
  root: UiElement,
  element: UiElement | undefined,
  inputs: string[],
): { name?: string } {
  if (!element || element.role !== 'text') return {}
  const own = element.name.replace(/\s+/g, ' ').trim()
  const parent = indexTree(root).parent.get(element)
  const inline = (e: UiElement): boolean => INLINE_ROLES.has(e.role) && e.children.every(inline)
  if (!parent?.children.every(inline)) return {}
  const sentence = (parent.name || joinPieces(parent.children.map((c) => c.name))).replace(/\s+/g, ' ').trim()
  if (sentence.length <= own.length || sentence.length > 200 || !sentence.includes(own)) return {}
  return { name: kind === 'screen' ? successName(sentence, inputs) : nameFromMessage(sentence, inputs) }
}
/** Pieces of one sentence joined as they read: no space inside quotes or before punctuation. */
function joinPieces(pieces: string[]): string {
  return pieces
    .map((p) => p.trim())
    .filter(Boolean)
    .reduce(
      (text, p) =>
        !text || /[“‘«(["']$/.test(text) || /^[”’»).,:;!?\]"']/.test(p) ? text + p : `${text} ${p}`,
      '',
    )
}
/** What a sentence is written with: its text pieces and the links or pictures inside it. */
const INLINE_ROLES = new Set<UiRole>(['text', 'link', 'image', 'generic'])

/** The element is an alert/status message or sits inside one. */
function inAlert(root: UiElement, element: UiElement): boolean {
  if (MESSAGE_ROLES.has(element.role)) return true
  const index = indexTree(root)
  for (let p = index.parent.get(element); p; p = index.parent.get(p))
    if (MESSAGE_ROLES.has(p.role)) return true
  return false
}
