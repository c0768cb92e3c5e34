// What a person did that is not the task, taken out of a recording before it becomes steps: a
// navigation that a click caused, a click that only put the cursor in a field, a detour (a move
// and straight back: Cancel, Back, Escape on a menu, the previous address), corrections (one
// value per control, the last; a box ticked and unticked is untouched). Then the submit: the
// action that sends the form, with the confirmation or preview's send that followed it.
import { ancestors, indexTree } from '../../automation/element-tree.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Snapshot, UiRole } from '../../protocol/elements.ts'
import type { Recording } from '../../protocol/recording.ts'
import { inputTexts } from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { classifyEnding } from '../observe/classify.ts'
import { appeared } from '../observe/ui-diff.ts'
import { BuildFailure } from '../session.ts'
import { confirmationButton } from '../submit/follow-through.ts'
import { stems } from '../words.ts'
import { sameAddress } from './demonstrated-values.ts'
import {
  type Act,
  counterpartIn,
  editingKey,
  FIELD_ROLES,
  isClick,
  isEnter,
  labelOf,
  roleOf,
  sameScreen,
  showsAll,
  TOGGLES,
  toAct,
  VALUE_KINDS,
} from './recorded-actions.ts'

/** Elements that do nothing by themselves: a click on one is on its way to something else. */
const PLAIN = new Set<UiRole>(['text', 'generic', 'image', 'group'])
/** Controls that go back to where the person was: a detour's way home. */
const BACK_OUT = /^(cancel|close|back|go back|back to .+|return( to .+)?|dismiss|no|×|✕|x)$/i
/** A send that follows the submit and sends further: a preview's "Submit", a review's "Save". */
const SEND_WORDS = new Set(
  stems('save submit create add register send post apply confirm book finish done update'),
)
/** After a send, buttons that start over rather than send further: "New customer", "Add another". */
const ANOTHER = /\b(new|another|again|more)\b/i
/** A navigation this soon after a click or Enter is the app's doing, not the person's. */
const CAUSED_MS = 3_000

export interface Sent {
  /** What leads to the submit: the way to the form and its values, in order. */
  path: Act[]
  /** The submit, after the sends it followed (a form's "Delete", then the dialog's "Yes"). */
  chain: Act[]
  /** Actions after the submit: a look at the result. */
  afterwards: number
  /** What was left out, in plain words. */
  dropped: string[]
}

/** The recording without what is not the task, and the action that sends the form. */
export function tidyRecording(
  recording: Recording,
  input: Record<string, unknown>,
  leaves: InputLeaf[],
  values: { path: string; value: string }[],
  expected: string[] = [],
): Sent {
  const dropped: string[] = []
  let acts = recording.actions.map((action, i) => toAct(recording, action, i))
  acts = acts.filter((a) => !editingKey(a))
  acts = withoutCausedNavigations(acts)
  acts = choicesByClicks(acts)
  acts = withoutFocusClicks(acts, dropped)
  acts = withoutDetours(acts, dropped)
  acts = mergedValues(acts, values, dropped)
  return { ...findSubmit(acts, input, leaves, dropped, expected), dropped }
}

/** Roles of a control whose options show in a list once it is pressed. */
const DROP_DOWNS = new Set<UiRole>(['combobox', 'listbox'])
/** Roles of the lists such a control opens. */
const OPTION_LISTS = new Set<UiRole>(['listbox', 'menu'])

/**
 * A drop-down pressed, then one of the options its list shows pressed: that is choosing the
 * option in the drop-down, as a select would be recorded (a styled drop-down over a hidden native
 * one records clicks only). The run chooses the caller's value there however the app draws it.
 */
function choicesByClicks(acts: Act[]): Act[] {
  const out: Act[] = []
  for (let i = 0; i < acts.length; i++) {
    const open = acts[i]!
    const pick = acts[i + 1]
    const role = roleOf(open)
    const opens =
      isClick(open) &&
      role &&
      (DROP_DOWNS.has(role) || (role === 'button' && open.element?.states.includes('collapsed')))
    if (opens && pick && isClick(pick) && pick.element && (isOption(pick) || ownOption(open, pick))) {
      const value = pick.element.name.trim()
      if (value) {
        out.push({ ...open, after: pick.after, action: { ...open.action, kind: 'select', value }, value })
        i++
        continue
      }
    }
    out.push(open)
  }
  return out
}

/** Whether the click was on an option of an opened list (the option itself, or its text). */
function isOption(act: Act): boolean {
  const element = act.element!
  if (element.role === 'option') return true
  const index = indexTree(act.before.root)
  return PLAIN.has(element.role) && ancestors(index, element).some((a) => OPTION_LISTS.has(a.role))
}

/**
 * Whether the pick is one of the pressed drop-down's own options drawn by the page: a native
 * drop-down whose page lists its options itself (as links or items of a floating list) holds
 * them still, so a pick that appeared after the press and is named like one of them chooses it.
 */
function ownOption(open: Act, pick: Act): boolean {
  const options = (open.element?.children ?? []).filter((c) => c.role === 'option').map((c) => fold(c.name))
  const name = fold(pick.element!.name)
  if (!name || !options.includes(name)) return false
  return !indexTree(open.before.root).all.some((e) => e.ref === pick.element!.ref)
}

const fold = (text: string) => collapse(text).toLowerCase()

/** A navigation right after a click or Enter is where that click led; one to where it was, none. */
function withoutCausedNavigations(acts: Act[]): Act[] {
  return acts.filter((act, i) => {
    if (act.action.kind !== 'navigate') return true
    if (!act.action.url || sameAddress(act.action.url, act.before.window.url)) return false
    const previous = acts[i - 1]
    return !(
      previous &&
      (isClick(previous) || isEnter(previous)) &&
      act.action.atMs - previous.action.atMs <= CAUSED_MS
    )
  })
}

/**
 * A click into a field that is then typed into only put the cursor there; a click on a box whose
 * ticking was recorded is that ticking. A click on a box without one becomes setting it.
 */
function withoutFocusClicks(acts: Act[], dropped: string[]): Act[] {
  return acts.flatMap((act, i): Act[] => {
    const role = roleOf(act)
    if (!isClick(act) || !role) return [act]
    const rest = acts.slice(i + 1)
    // A click on a field's caption just before its value is set is that setting.
    if (PLAIN.has(role) && rest[0] && VALUE_KINDS.has(rest[0].action.kind)) return []
    if (FIELD_ROLES.has(role)) {
      const typedInto = rest.some((b) => VALUE_KINDS.has(b.action.kind) && b.key === act.key)
      const chosen = role === 'option' && rest[0]?.action.kind === 'select'
      if (typedInto && role !== 'option')
        dropped.push(`a click that only put the cursor in “${labelOf(act)}”`)
      if (typedInto || chosen) return []
    }
    if (TOGGLES.has(role)) {
      if (rest.some((b) => b.action.kind === 'check' && b.key === act.key)) return []
      const now = act.element && counterpartIn(act.after.root, act.element)
      if (now) {
        const value = String(now.states.includes('checked'))
        return [{ ...act, action: { ...act.action, kind: 'check', value } }]
      }
    }
    return [act]
  })
}

/**
 * A move somewhere followed straight away by a way back to where it started (Cancel, Back, a
 * menu closed with Escape, the previous address) is a detour: both go.
 */
function withoutDetours(acts: Act[], dropped: string[]): Act[] {
  const kept: Act[] = []
  for (const act of acts) {
    // The values typed on the way count for nothing when the screen they were on is left unsent.
    let at = kept.length - 1
    while (at >= 0 && VALUE_KINDS.has(kept[at]!.action.kind)) at--
    const move = kept[at]
    if (
      move &&
      backsOut(act) &&
      isMove(move) &&
      !sameScreen(move.before, move.after) &&
      sameScreen(move.before, act.after)
    ) {
      const typed = kept.length - at - 1
      kept.length = at
      dropped.push(
        `a detour through “${labelOf(move)}” and back` +
          (typed ? ` (with ${typed} value${typed === 1 ? '' : 's'} typed there)` : ''),
      )
      continue
    }
    kept.push(act)
  }
  return kept
}

function isMove(act: Act): boolean {
  const role = roleOf(act)
  return (
    act.action.kind === 'navigate' || (isClick(act) && !!role && !FIELD_ROLES.has(role) && !TOGGLES.has(role))
  )
}

function backsOut(act: Act): boolean {
  const { kind, key } = act.action
  if (kind === 'navigate') return true
  if (kind === 'key') return /^(escape|esc|alt\+arrowleft|browserback)$/i.test(key ?? '')
  return kind === 'click' && BACK_OUT.test(labelOf(act).trim())
}

/**
 * One action per control and screen: the value it ends with, at the place it was first set. A
 * control that ends as it began (a box ticked and unticked) is left out unless the value is the
 * sample's. Screens change at moves that lead elsewhere; a refused submit is no such move.
 */
function mergedValues(acts: Act[], values: { path: string; value: string }[], dropped: string[]): Act[] {
  const groups = new Map<string, Act[]>()
  let screen = 0
  const placed: (Act | string)[] = []
  for (const act of acts) {
    if (!VALUE_KINDS.has(act.action.kind)) {
      placed.push(act)
      if (!sameScreen(act.before, act.after)) screen++
      continue
    }
    const id = `${screen}|${act.action.kind === 'check' ? 'check' : 'value'}|${act.key}`
    const group = groups.get(id)
    if (group) group.push(act)
    else {
      groups.set(id, [act])
      placed.push(id)
    }
  }
  // The sample's value, or a text holding it as a word ("City: Leeds" typed into a filter box).
  const isSample = (value: string) =>
    values.some((v) => {
      const shown = fold(v.value)
      const typed = fold(value)
      if (shown === typed) return true
      const at = typed.indexOf(shown)
      return (
        shown.length >= 3 &&
        at >= 0 &&
        !/\w/.test(typed[at - 1] ?? '') &&
        !/\w/.test(typed[at + shown.length] ?? '')
      )
    })
  return placed.flatMap((item) => {
    if (typeof item !== 'string') return [item]
    const group = groups.get(item)!
    const first = group[0]!
    const last = group.at(-1)!
    const value = last.secret ? undefined : (last.action.value ?? '')
    const merged: Act = {
      ...first,
      action: { ...last.action, before: first.action.before },
      ...(value === undefined ? {} : { value }),
    }
    if (first.secret || last.secret) return [{ ...merged, secret: true }]
    // Only what was changed more than once can have been changed back: a single choice that
    // reads as the value the control already had was read from a screen the recorder took after it.
    const initial = initialValue(first)
    if (group.length > 1 && initial !== undefined && initial === value && !isSample(value)) {
      dropped.push(`“${labelOf(first)}”, changed and changed back`)
      return []
    }
    // Typing gives one event per change ("A", "Ad", "Ada"): a value the last one does not begin with was corrected.
    const earlier = group.slice(0, -1).map((a) => a.action.value ?? '')
    if (first.action.kind !== 'check' && earlier.some((v) => !(value ?? '').startsWith(v)))
      dropped.push(`corrections in “${labelOf(first)}” (its last value counts)`)
    return [merged]
  })
}

/** What the control held before the person touched it. */
function initialValue(act: Act): string | undefined {
  const element = act.element
  if (!element) return undefined
  if (act.action.kind === 'check') return String(element.states.includes('checked'))
  if (act.action.kind === 'input') return element.value ?? ''
  return element.value
}

/**
 * The submit: the first send (a button, or Enter) after the last value, followed further by a
 * confirmation's button or a preview's send. With no values, the last move is the submit (an
 * address opened, a row's action). Earlier presses of the same button that the app refused (the
 * form stayed) were corrections.
 */
function findSubmit(
  acts: Act[],
  input: Record<string, unknown>,
  leaves: InputLeaf[],
  dropped: string[],
  expected: string[],
): Omit<Sent, 'dropped'> {
  const lastValue = acts.findLastIndex((a) => VALUE_KINDS.has(a.action.kind))
  const isSend = (a: Act) => isEnter(a) || isMove(a)
  // After the values, the first action named like a send ("Save", Enter), else the first move
  // at all (an "OK"); a tab opened on the way to it stays part of the path.
  const after = acts.flatMap((a, i) =>
    i > lastValue && isSend(a) && a.action.kind !== 'navigate' ? [i] : [],
  )
  const named = after.find(
    (i) => isEnter(acts[i]!) || stems(labelOf(acts[i]!)).some((w) => SEND_WORDS.has(w)),
  )
  let at = lastValue < 0 ? acts.findLastIndex(isSend) : (named ?? after[0] ?? -1)
  if (at < 0)
    throw new BuildFailure(
      'NO_SUBMIT',
      lastValue < 0
        ? 'The demonstration never opened or sent anything. Record again: do the whole task, and press Done once the app shows its answer.'
        : `The demonstration filled in “${labelOf(acts[lastValue]!)}” but never pressed a button that sends the form (or Enter). Record again and finish with the button that saves it.`,
    )
  const inputs = inputTexts(input)
  let chain = sendChain(acts, at, inputs, leaves)
  // A button named like a send pressed after that send and whatever confirmed it ("Save Changes"
  // on the record a search found) means the person went on working: the first send was a way
  // there, and the last one is the task's. Looking at a result presses no such button.
  for (;;) {
    const later = acts.findIndex(
      (a, i) =>
        i >= at + chain.length &&
        isClick(a) &&
        !ANOTHER.test(labelOf(a)) &&
        stems(labelOf(a)).some((w) => SEND_WORDS.has(w)),
    )
    if (later < 0) break
    at = later
    chain = sendChain(acts, at, inputs, leaves)
  }
  // The person found the record and then opened it (a row picked, "Open"): the move whose screen
  // first shows every expected value the send's screen lacked is the task's last step.
  const opened = openedRecord(acts, at + chain.length, chain.at(-1)!.after, expected)
  if (opened >= 0) {
    at = opened
    chain = sendChain(acts, at, inputs, leaves)
  }
  const submitKey = chain[0]!.key
  const path = acts.slice(0, at).filter((a) => {
    const refused = isClick(a) && a.key === submitKey && sameScreen(a.before, a.after)
    if (refused) dropped.push(`an earlier “${labelOf(a)}” the app did not take`)
    return !refused
  })
  return { path, chain, afterwards: acts.length - at - chain.length }
}

/**
 * The first move from `from` on whose screen every expected value shows, when the send's own
 * screen lacked one; -1 when there is none (the actions after the send only looked).
 */
function openedRecord(acts: Act[], from: number, sent: Snapshot, expected: string[]): number {
  if (expected.length === 0 || showsAll(sent.root, expected)) return -1
  for (let i = from; i < acts.length; i++) {
    const act = acts[i]!
    if ((isMove(act) || isEnter(act)) && act.action.kind !== 'navigate' && showsAll(act.after.root, expected))
      return i
  }
  return -1
}

/** The send at `at`, followed by a confirmation's button or a preview's own send (up to four presses). */
function sendChain(acts: Act[], at: number, inputs: string[], leaves: InputLeaf[]): Act[] {
  const chain = [acts[at]!]
  for (let next = at + 1; next < acts.length && chain.length < 4; next++) {
    const send = chain.at(-1)!
    const candidate = acts[next]!
    if (!isClick(candidate) || !candidate.element) break
    const ending = classifyEnding(send.before.root, send.after.root, [], inputs, leaves)
    const confirm = ending && confirmationButton(ending)
    const fresh = appeared(send.before.root, send.after.root).some(
      (e) => e.role === candidate.element!.role && e.name === candidate.element!.name,
    )
    const further =
      fresh &&
      !ANOTHER.test(candidate.element.name) &&
      stems(candidate.element.name).some((w) => SEND_WORDS.has(w))
    if (!(confirm && confirm.name === candidate.element.name) && !further) break
    chain.push(candidate)
  }
  return chain
}
