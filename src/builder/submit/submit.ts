// Step 4 of a build: the button that sends the form. Looked for in the smallest part of the
// screen that holds the mapped fields (their form), widening outwards; named like a submit
// (Save, Submit, Search…) or like the task; asked about when two are equally plausible.
import { stemmer } from 'stemmer'
import { ancestors, type TreeIndex } from '../../automation/element-tree.ts'
import { indexTree } from '../../automation/index.ts'
import type { Selector, Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { askOnScreen, askToPoint } from '../ask/pointing.ts'
import { opensChooser } from '../chooser.ts'
import { isSearchBox, type Refusal, refusal, rivalsTask } from '../explore/explore-moves.ts'
import { nextButton } from '../explore/pages.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { actionOf, splitWords, stems } from '../words.ts'

export { opensChooser } from '../chooser.ts'

const SUBMIT = new Set(
  stems(
    'save submit create add search find send ok apply confirm go continue done register post publish update book open next finish',
  ),
)
/**
 * Submit words that also name other things ("Register" a new account, "Open" a record, "Go" to a
 * page, "Next" page): such a button is only taken when the task's words back it up.
 */
const DOUBTFUL = new Set(stems('register open go ok continue next'))
const NOT_SUBMIT = new Set(
  stems(
    'cancel reset clear back close delete remove discard previous help logout signout abort preview print export download ' +
      // Parts of the screen a button shows or hides ("Open publish panel", "Toggle sidebar"):
      // a send is never named for one.
      'panel sidebar drawer toolbar',
  ),
)
/** Controls a person uses to search: Enter in the box sends it when there is no button. */
const SEARCHY = new Set(stems('search find query filter lookup'))
/** A button that sends a search box, by its very words ("Show" is a synonym of "find", not a search button). */
const SEARCH_BUTTON = /\b(search|find|filter|look ?up|query|go|ok|apply)\b/i

/**
 * A button's plausibility as the submit, or undefined for one that surely is not (Cancel, Back).
 * One named for another action than the task's ("Insert As New Row" on a row's edit form, for a
 * change) scores nothing: never taken silently, still offered when asking.
 */
export function submitScore(name: string, reading: PromptReading): number | undefined {
  const words = stems(name)
  if (words.length === 0 || words.some((w) => NOT_SUBMIT.has(w))) return undefined
  if (notTheTasksSend(name, reading)) return 0
  // Two actions in one button ("Save and add another", "Save & continue editing"): one that goes
  // on to another form is never taken silently; any other yields to the plain one beside it.
  const [, then] = name.split(COMPOUND)
  if (then !== undefined && stems(then).some((w) => GOES_ON.has(w))) return 0
  // Words joined by a slash name a choice of states ("Read/Write", "Free/Busy", "On/Off"), as a
  // permission or a setting is named; a send is named by one action.
  if (/\p{L}\s*\/\s*\p{L}/u.test(name)) return 0
  // A submit word the task uses for the thing it makes ("Write a blog post") names that thing
  // (the editor's "Post" panel), not how it is sent: it counts as the task's word only.
  // Words for looking at things ("List view", "Show more", "Unordered list") share the find
  // family with "Search" but send nothing: only a button that says search or find is one.
  const looks = !splitWords(name).some((w) => SENDS_SEARCH.has(stemmer(w)))
  // "New" (a record toolbar's) starts a blank record; it sends none ("Create" and "Add" do).
  const blank = splitWords(name)[0] === 'new'
  const submitLike = words.some(
    (w) => SUBMIT.has(w) && !objectNoun(w, reading) && !(w === FIND && looks) && !(w === CREATE && blank),
  )
    ? 1
    : 0
  const task = Math.min(1, words.filter((w) => reading.taskStems.includes(w)).length * 0.5)
  return submitLike + task - (then !== undefined ? 0.25 : 0)
}

/**
 * A send that does something else than the task asks: another action (rivalsTask), a write for a
 * lookup ("Save Draft" under a title box, for a task that finds a post), or a weaker step than the
 * task's ("Save Draft" when the task says publish or send). Never taken silently; a form whose
 * sends are all such is not the task's form (sendsOnlyElsewhere).
 */
export function notTheTasksSend(name: string, reading: PromptReading): boolean {
  if (rivalsTask(reading, name)) return true
  const words = splitWords(name)
  if (reading.verb === FIND && words.some((w) => WRITES.has(w))) return true
  // A search sends nothing to store: its form is never where a record is made or changed.
  if ((reading.verb === CREATE || reading.verb === EDIT) && words.length > 0 && actionOf(words[0]!) === FIND)
    return true
  const task = splitWords(reading.text).map((w) => stemmer(w))
  const drafts = (list: string[]) => list.some((w) => DRAFT.has(stemmer(w)))
  return drafts(words) && !drafts(task) && task.some((w) => FINAL.has(w))
}

/** The words of a button that sends a search, as written ("Search", "Find", "Look up", "Query"). */
const SENDS_SEARCH = new Set(['search', 'find', 'look', 'lookup', 'query'].map((w) => stemmer(w)))

/** A word of what the task acts on that is a thing, not an action ("post", but not "new" → create). */
const objectNoun = (word: string, reading: PromptReading) =>
  reading.object.includes(word) && !ACTIONS.has(word)
const ACTIONS = new Set(['find', 'create', 'edit', 'delete', 'save'].map((w) => actionOf(w)))

const FIND = actionOf('find')
const CREATE = actionOf('create')
const EDIT = actionOf('edit')
/** Words of a send that stores what the form holds (a lookup never presses one). */
const WRITES = new Set(['save', 'store', 'create', 'add', 'insert', 'post', 'publish'])
/** A send that keeps a draft, and the task's words that ask for more than a draft. */
const DRAFT = new Set(['draft'])
const FINAL = new Set(['publish', 'send', 'submit', 'release'].map((w) => stemmer(w)))

/**
 * The control sits in a form (or the nearest part of the screen with buttons) whose submit-like
 * buttons all do something else than the task (notTheTasksSend): filling it would not do the
 * task, so it does not make a screen fit (a dashboard's quick-draft box for a lookup, or for a
 * task that publishes).
 */
export function sendsOnlyElsewhere(root: UiElement, element: UiElement, reading: PromptReading): boolean {
  const sends = buttonsNear(root, [element]).filter(
    (b) => !stems(b.name).some((w) => NOT_SUBMIT.has(w)) && stems(b.name).some((w) => SUBMIT.has(w)),
  )
  return sends.length > 0 && sends.every((b) => notTheTasksSend(b.name, reading))
}

const COMPOUND = /\s+(?:and|&|\+)\s+/i
const GOES_ON = new Set(stems('another new continue editing edit next more again'))

/** Buttons in the fields' form (or the nearest part of the screen that has any), in screen order. */
export function buttonsNear(
  root: UiElement,
  fields: UiElement[],
  skip: (button: UiElement) => boolean = () => false,
): UiElement[] {
  const index = indexTree(root)
  const scopes = fields.length ? commonAncestors(index, fields) : [root]
  for (const scope of scopes) {
    const buttons = index.all.filter(
      (e) => e.role === 'button' && e.name.trim() !== '' && within(index, scope, e) && !skip(e),
    )
    if (buttons.length) return buttons
  }
  return []
}

/** Whether taking this button without asking is safe: a clear submit word, or the task's own words. */
export function speaksForItself(name: string, reading: PromptReading, inDialog = false): boolean {
  const words = stems(name)
  // A dialog's "OK" is how its fields are sent (a desktop app's record dialog, a modal form).
  const clear = words.some((w) => SUBMIT.has(w) && (!DOUBTFUL.has(w) || (inDialog && DIALOG_SENDS.has(w))))
  const task = words.some((w) => reading.taskStems.includes(w) && !reading.names.includes(w))
  return clear || task
}

/**
 * What exploring never presses for the harm it does is never a form's send either: a chooser (a
 * colour, a file), a control acting on the whole file ("Open Database…", "New File" on the tool
 * bar beside an entry form), a setting, another site (docs/builder.md, "Do no harm").
 */
const NEVER_SENDS = new Set<Refusal>([
  'opens a chooser',
  'acts on the whole file',
  'switches a setting',
  'other site',
])
function neverSends(root: UiElement, element: UiElement, reading: PromptReading): boolean {
  if (opensChooser(element.name)) return true
  const why = refusal(indexTree(root), element, undefined, reading)
  return why !== undefined && NEVER_SENDS.has(why)
}

/** Doubtful words that are a dialog's affirmative button when the fields sit in that dialog. */
const DIALOG_SENDS = new Set(stems('ok'))
const DIALOG_ROLES = new Set(['dialog', 'alertdialog'])

/** Every field sits in one modal dialog (or dialog-like window part): its buttons are the dialog's. */
export function fieldsInDialog(root: UiElement, fields: UiElement[]): boolean {
  if (fields.length === 0) return false
  const index = indexTree(root)
  const dialogOf = (e: UiElement) => ancestors(index, e).find((a) => DIALOG_ROLES.has(a.role))
  const first = dialogOf(fields[0]!)
  return first !== undefined && fields.every((f) => dialogOf(f) === first)
}

/**
 * An "OK" beside a "Cancel" in one button box (a desktop app's record page shown in its main
 * window, as KeePassXC's entry editor is): the form answers as a dialog does, so its OK sends it.
 */
function answersLikeDialog(root: UiElement, buttons: UiElement[]): boolean {
  const index = indexTree(root)
  const box = (name: RegExp) =>
    buttons.filter((b) => name.test(b.name.trim())).map((b) => index.parent.get(b))
  const cancels = new Set(box(/^cancel$/i))
  return box(/^ok$/i).some((parent) => parent !== undefined && cancels.has(parent))
}

export interface SubmitChoice {
  step: Step
  label: string
}

export async function chooseSubmit(
  session: BuildSession,
  root: UiElement,
  fields: UiElement[],
  reading: PromptReading,
): Promise<SubmitChoice> {
  const choice = await chooseButton(session, root, fields, reading, searchOnly(root, fields))
  if (choice)
    return {
      step: { kind: 'click', name: `Click “${choice.label}”`, target: choice.selector },
      label: choice.label,
    }
  const box = enterTarget(fields)
  if (!box)
    throw new BuildFailure(
      'NO_SUBMIT',
      'There is no button next to the fields to send them with, and they are not a search box that Enter sends. ' +
        'Is the form complete on this screen? Name the button in the prompt (“… and press Save”).',
    )
  session.progress(
    'submit',
    `No button sends these fields; “${box.name || 'the search box'}” is a search box, so the form is sent by pressing Enter in it`,
  )
  return {
    step: {
      kind: 'keys',
      name: `Press Enter in “${box.name || 'the search box'}”`,
      target: designSelector(root, box, `the “${box.name || 'search'}” box`),
      keys: 'Enter',
    },
    label: 'Enter',
  }
}

/** The last field, when the fields are a search (a search box, or one box named like a search). */
function enterTarget(fields: UiElement[]): UiElement | undefined {
  const boxes = fields.filter((f) => f.role === 'textbox' || f.role === 'combobox')
  const box = boxes.at(-1)
  if (!box) return undefined
  const words = stems(`${box.name} ${box.placeholder ?? ''} ${box.automationId ?? ''}`)
  const searchy = box.inputType === 'search' || words.some((w) => SEARCHY.has(w))
  return searchy || boxes.length === 1 ? box : undefined
}

/**
 * The fields are search boxes only (typed as search, or named "Search…" by their label or the
 * text before them): a desktop app's filter box, which filters as it is typed into.
 */
function searchOnly(root: UiElement, fields: UiElement[]): boolean {
  if (fields.length === 0) return false
  const controls = readControls(root)
  return fields.every((f) => isSearchBox(f) || controls.some((c) => c.element === f && c.shape === 'search'))
}

async function chooseButton(
  session: BuildSession,
  root: UiElement,
  fields: UiElement[],
  reading: PromptReading,
  searching = false,
): Promise<{ selector: Selector; label: string } | undefined> {
  // The buttons of a list inside the form ("Add", "Remove" above a grid of categories) act on
  // that list, not on the form: the form's own are sought around it.
  const others = buttonsNear(root, fields, (b) => listButton(root, b, fields))
  const near = others.length ? others : buttonsNear(root, fields)
  // A search is sent by a button named for searching, or by Enter: a toolbar's "Show contact
  // location" next to a filter box is no way to send it, whatever task words it shares.
  const buttons = searching ? near.filter((b) => SEARCH_BUTTON.test(b.name)) : near
  if (searching && buttons.length === 0) {
    session.progress(
      'submit',
      'The fields are a search box and no button next to them is named for searching',
    )
    return undefined
  }
  const all = buttons
    .map((element) => ({
      element,
      score: neverSends(root, element, reading) ? undefined : submitScore(element.name, reading),
    }))
    .filter((b): b is { element: UiElement; score: number } => b.score !== undefined)
  // A disabled button sends nothing now; one the form enables once filled is still in the running
  // while no enabled button could send it (docs/builder.md, "Do no harm").
  const enabled = all.filter((b) => !b.element.states.includes('disabled'))
  const scored = enabled.some((b) => b.score > 0) ? enabled : all
  const ranked = [...scored].sort((a, b) => b.score - a.score)
  const excluded = buttons.filter((b) => !scored.some((s) => s.element === b)).map((b) => `“${b.name}”`)
  session.progress(
    'submit',
    `Buttons next to the fields: ${buttons.map((b) => `“${b.name}”`).join(', ') || 'none'}` +
      (excluded.length
        ? ` (${excluded.join(', ')} never ${excluded.length === 1 ? 'sends' : 'send'} a form)`
        : ''),
    {
      buttons: buttons.map((b) => b.name),
      scores: ranked.map((b) => ({ button: b.element.name, score: b.score })),
    },
  )
  const [first, second] = ranked
  const inDialog = fieldsInDialog(root, fields) || answersLikeDialog(root, buttons)
  const pick = (element: UiElement, why: string) => {
    session.progress('submit', `The form is sent with “${element.name}” (${why})`, { button: element.name })
    return { selector: designSelector(root, element, `the “${element.name}” button`), label: element.name }
  }
  if (
    first &&
    speaksForItself(first.element.name, reading, inDialog) &&
    first.score > 0 &&
    (!second || first.score - second.score >= 0.5)
  )
    return pick(first.element, ranked.length === 1 ? 'the only one that can send it' : 'named like a submit')
  if (buttons.length === 0) return undefined
  // Every value is placed and the way on is a wizard's "Next": the real send is on a later page
  // (a review page's "Book room"); the outcome after "Next" is checked for it.
  const onward = nextButton(root)
  if (onward && buttons.includes(onward) && !ranked.some((r) => r.element !== onward && r.score > 0))
    return pick(onward, 'the wizard goes on; the page after it is checked for the real send')
  // Never a silent guess: a lone “Preview”, “Register” or “Cancel” is asked about, with every button.
  const options = [
    ...ranked.map((r) => r.element),
    ...buttons.filter((b) => !ranked.some((r) => r.element === b)),
  ].slice(0, 10)
  if (first)
    session.progress(
      'submit',
      `No button clearly sends the form (“${first.element.name}” ${speaksForItself(first.element.name, reading, inDialog) ? 'ties with another' : 'may do something else'}); asking`,
    )
  const answer = await askOnScreen(session, {
    kind: 'choose_submit',
    text: 'Which button sends this form once the fields are filled in?',
    options: [
      ...options.map((b, i) => ({ value: String(i), label: b.name })),
      ...(enterTarget(fields) ? [{ value: 'enter', label: 'None: press Enter in the last field' }] : []),
    ],
    multiple: false,
  })
  if (answer.kind === 'option' && answer.value === 'enter') return undefined
  const chosen = answer.kind === 'option' ? options[Number(answer.value)] : undefined
  if (chosen) return pick(chosen, 'as answered')
  const pointed =
    answer.kind === 'point'
      ? answer
      : await askToPoint(
          session,
          'Point at the button (or link) that sends this form once the fields are filled in.',
        )
  const button = pointed && clickable(pointed.snapshot.root, pointed.element)
  if (!button)
    throw new BuildFailure(
      'NO_SUBMIT',
      'No button that sends the form was chosen or pointed at. Teach again and point at it, or show the way ("demonstrate": true).',
    )
  session.progress('submit', `The form is sent with “${button.name}” (pointed at)`, { button: button.name })
  return {
    selector: designSelector(pointed.snapshot.root, button, `the “${button.name}” button`),
    label: button.name,
  }
}

/** The button or link at or around what was pointed at. */
function clickable(root: UiElement, element: UiElement): UiElement | undefined {
  const index = indexTree(root)
  for (let e: UiElement | undefined = element; e; e = index.parent.get(e))
    if ((e.role === 'button' || e.role === 'link' || e.role === 'menuitem') && e.name.trim()) return e
  return undefined
}

/** The fields' lowest common ancestor (its form, when it has one) and every ancestor above it. */
function commonAncestors(index: TreeIndex, elements: UiElement[]): UiElement[] {
  const chains = elements.map((e) => ancestors(index, e))
  const shared = chains[0]!.filter((a) => chains.every((chain) => chain.includes(a)))
  const form = shared.find((a) => a.role === 'form')
  return form ? shared.slice(shared.indexOf(form)) : shared
}

function within(index: TreeIndex, container: UiElement, element: UiElement): boolean {
  for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (e === container) return true
  return false
}

/**
 * A button of a list widget inside a form: the nearest part of the screen around it that holds a
 * table of records (column headers) holds no field outside that table, or none of the fields
 * being sent (a list's own box for picking what to add beside its "Add"). The form's own buttons
 * ("Save") sit in a part that holds the form's fields too.
 */
function listButton(root: UiElement, button: UiElement, fields: UiElement[]): boolean {
  const index = indexTree(root)
  const holder = ancestors(index, button).find((a) =>
    indexTree(a).all.some(
      (e) => e.role === 'table' && indexTree(e).all.some((c) => c.role === 'columnheader'),
    ),
  )
  if (!holder || holder === root) return false
  const tables = indexTree(holder).all.filter((e) => e.role === 'table')
  const inTable = (e: UiElement) => tables.some((t) => t !== e && indexTree(t).all.includes(e))
  const held = indexTree(holder).all
  return !held.some((e) => FIELD_ROLES.has(e.role) && !inTable(e)) || !fields.some((f) => held.includes(f))
}
const FIELD_ROLES = new Set(['textbox', 'combobox', 'spinbutton', 'checkbox', 'radio'])
