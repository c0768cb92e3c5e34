// Which controls exploring may press, and how promising each is. Exploring stays inside the app:
// no link to another site, no download, no sign-out, nothing that deletes; and it never presses
// a control that sends a form while that form is still empty ("Register", "Create" under blank
// fields would create junk records in a real app, whose data persists). It does no harm the task
// did not ask for (docs/builder.md, "Do no harm"): no setting switched (a check menu item, a
// toggle button), nothing that quits the app, opens a browser, or acts on the whole file (new,
// open, close or rewrite the file, database or window) rather than on a record.

import { stemmer } from 'stemmer'
import { ancestors, descendants, indexTree, type TreeIndex } from '../../automation/element-tree.ts'
import { renderSelector, resolveSelector } from '../../automation/index.ts'
import type { Selector } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { opensChooser } from '../chooser.ts'
import { escapeRegex } from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { nameStems, type PromptReading } from '../locate/prompt.ts'
import { activeScope } from '../screen.ts'
import { actionOf, splitWords, stems } from '../words.ts'

const LEAVING = new Set(
  stems(
    'logout logoff signout delete remove destroy erase discard download export print unsubscribe quit exit',
  ),
)
/** Menu items that change how the window looks, a saved setting in most apps. */
const VIEW_TOGGLE =
  /^(show|hide|toggle)\b|\b(mode|always on top|full ?screen|zoom (in|out)|word wrap|line numbers|status ?bar|tool ?bar|side ?bar|preview (panel|pane))$/i
/** "Open URL", "Visit website", "Open in browser": a control that sends the person elsewhere. */
const OUTWARD = /\b(url|urls|website|web\s*site|web\s*page|homepage|browser|hyperlink)\b/i
/**
 * Words for the whole file, database or window an app holds, as opposed to a record in it: a
 * control that does something to one ("New File", "Open Database…", "Close Window", "Obfuscate
 * account file": a verb before the word) acts on all of the person's data or leaves it. The word
 * alone ("File", a menu; "Documents", a list of records) only opens something, and a task about
 * such things ("add a document") makes them its records.
 */
const WHOLE_FILE = new Set(stems('file database document workbook window'))

function actsOnWholeFile(name: string, task: PromptReading | undefined): boolean {
  const words = stems(name)
  const at = words.findIndex((w) => WHOLE_FILE.has(w))
  if (at < 1) return false
  return !task || ![...task.object, ...task.names].includes(words[at]!)
}
/** "Log out", "Sign out", "Log off": two words that leave the session together. */
const LEAVING_PHRASE = /\b(log|sign)\s*(out|off)\b/i
const DOWNLOAD =
  /\.(zip|gz|tgz|bz2|xz|7z|rar|pdf|csv|xlsx?|docx?|odt|ods|exe|msi|dmg|iso|tar|jar|apk)(\?|#|$)/i
/** Words of a control that sends what a form holds. */
const SENDS_FORM = new Set(
  stems(
    'save submit create add register send post apply confirm book finish done update preview signup ' +
      'publish order pay checkout share invite upload import schedule',
  ),
)
const EDITABLE = new Set(['textbox', 'spinbutton', 'combobox'])
/**
 * Verbs of a button that only sends what is on the screen ("Update", "Save changes", "Apply",
 * "Publish"): exploring looks for a screen and never needs one; pressing it would change data.
 * ("Create", "Add", "New" also open forms, so they fall under the empty-form rule instead.)
 */
const ONLY_SENDS = new Set(
  'save submit update apply confirm send publish pay checkout upload import schedule finish'
    .split(' ')
    .map((w) => stemmer(w)),
)
/** The button's first word as written, plain stem (no synonyms: "Update" is not "Edit"). */
const firstVerb = (name: string) => stemmer(splitWords(name)[0] ?? '')

export type Refusal =
  | 'other site'
  | 'download'
  | 'leaves the session'
  | 'empty form'
  | 'saves data'
  | 'switches a setting'
  | 'acts on the whole file'
  | 'opens a chooser'

/** Why exploring must not press this control, or undefined when it may. */
export function refusal(
  index: TreeIndex,
  element: UiElement,
  appUrl: string | undefined,
  /** The task, when known: its own objects are records, never "the whole file". */
  task?: PromptReading,
): Refusal | undefined {
  if (element.href) {
    const target = safeUrl(element.href, appUrl)
    const home = appUrl ? safeUrl(appUrl) : undefined
    if (target && /^https?:$/.test(target.protocol) && home && target.origin !== home.origin)
      return 'other site'
    if (target && !/^(https?|javascript):$/.test(target.protocol) && target.protocol !== 'about:')
      return 'other site'
    if (DOWNLOAD.test(element.href)) return 'download'
  }
  if (LEAVING_PHRASE.test(element.name) || stems(element.name).some((w) => LEAVING.has(w)))
    return 'leaves the session'
  if ((element.role === 'menuitem' || element.role === 'button') && element.states.includes('checkable'))
    return 'switches a setting'
  // A menu item that is ticked is a setting, whatever the toolkit says of it (Qt marks a checkable
  // item only while it is on), and one that shows or hides a part of the window, or switches a
  // mode of the view, is a setting by its words ("Show Toolbar", "Hide Passwords", "Compact Mode",
  // "Always on Top", "Full Screen"): many apps save them.
  if (
    element.role === 'menuitem' &&
    (element.states.includes('checked') || VIEW_TOGGLE.test(element.name.trim()))
  )
    return 'switches a setting'
  if (OUTWARD.test(element.name)) return 'other site'
  // A chooser (a file, a colour, a font) picks one value; it is never the way to a form, and a
  // file chooser keeps where it was last (KeePassXC's "Browse for key file" wrote Qt's settings).
  if ((element.role === 'button' || element.role === 'menuitem') && opensChooser(element.name))
    return 'opens a chooser'
  if (actsOnWholeFile(element.name, task)) return 'acts on the whole file'
  if (element.role === 'button' && ONLY_SENDS.has(firstVerb(element.name))) return 'saves data'
  if (element.role === 'button' && sendsEmptyForm(index, element)) return 'empty form'
  return undefined
}

/** A button named like a submit whose form (nearest container with editable fields) is all blank. */
function sendsEmptyForm(index: TreeIndex, button: UiElement): boolean {
  if (!stems(button.name).some((w) => SENDS_FORM.has(w))) return false
  const chain = ancestors(index, button)
  const form = chain.find((a) => a.role === 'form') ?? chain.slice(0, 3).find((a) => fieldsOf(a).length > 0)
  if (!form) return false
  // In a form, a drop-down always shows a value (its first option): only what a person types says
  // whether it was filled in, so a form whose typed fields are all blank is empty. (Beside a
  // toolbar's filters, whose drop-down is set, an "Add" opens a form of its own.)
  const fields = fieldsOf(form)
  const typed =
    form.role === 'form' ? fields.filter((f) => f.role !== 'combobox' || f.inputType !== undefined) : fields
  return typed.length > 0 && typed.every((f) => !f.value)
}

function fieldsOf(container: UiElement): UiElement[] {
  return descendants(container).filter(
    (e) => EDITABLE.has(e.role) && !e.states.includes('readonly') && !e.states.includes('disabled'),
  )
}

/**
 * How promising a control is for the task: the task's object words count most, its verb and the
 * names it quotes next, other task words a little. "New ticket" for "Open a ticket" scores on
 * the object (ticket) and the verb family; "Returns" for "Record a refund on the Returns page" on the name.
 */
export function moveScore(reading: PromptReading, name: string): number {
  const have = new Set([...stems(name), ...nameStems(name)])
  if (have.size === 0) return 0
  // "New note" is no way to change a note, nor "Delete" a way to create one.
  if (rivalsTask(reading, name)) return 0
  let score = 0
  for (const s of reading.object) if (have.has(s)) score += 1
  for (const s of reading.names) if (have.has(s) && !reading.object.includes(s)) score += 1
  if (reading.verb && have.has(reading.verb)) score += 0.75
  // What the task returns often names the record ("return the ticket id" → the Tickets page).
  for (const s of returnedThings(reading)) if (have.has(s) && !reading.taskStems.includes(s)) score += 0.5
  for (const s of reading.taskStems)
    if (have.has(s) && !reading.object.includes(s) && !reading.names.includes(s) && s !== reading.verb)
      score += 0.5
  return score
}

/** A control named for another action than the task's ("Insert As New Row" when editing a row). */
export function rivalsTask(reading: PromptReading, name: string): boolean {
  const rivals = RIVALS.get(reading.verb ?? '')
  return rivals !== undefined && splitWords(name).some((w) => rivals.has(actionOf(w) ?? ''))
}

const ROW_ROLES = new Set(['row', 'listitem', 'treeitem'])
/**
 * Actions that are never the way to another: "New ticket" for a lookup or a change, "Edit" for
 * a lookup, "Delete" for anything but deleting, "Search" for a new record. (A search is fine on
 * the way to a change.)
 */
const family = (w: string) => actionOf(w)!
const RIVALS = new Map<string, Set<string>>([
  [family('find'), new Set([family('create'), family('edit'), family('delete')])],
  // A search or a filter lists what exists: it is never the way to a new record's form.
  [family('create'), new Set([family('edit'), family('delete'), family('find')])],
  [family('edit'), new Set([family('create'), family('delete')])],
  [family('delete'), new Set([family('create'), family('edit')])],
])

/**
 * For a control inside a table row (or list item) that shows one of the sample's values: a
 * selector for "this control in the row showing {{value}}", so a live call acts on its own
 * record's row, never on whichever row the sample's happened to be.
 */
export function rowSelector(
  index: TreeIndex,
  element: UiElement,
  leaves: InputLeaf[],
): { selector: Selector; value: string } | undefined {
  // The innermost row or item that shows a value: an "Edit" in its own little list item sits
  // inside the card (an item too) that shows the record's title.
  for (const row of ancestors(index, element).filter((a) => ROW_ROLES.has(a.role))) {
    const found = rowSelectorIn(index, row, element, leaves)
    if (found) return found
  }
  return undefined
}

function rowSelectorIn(
  index: TreeIndex,
  row: UiElement,
  element: UiElement,
  leaves: InputLeaf[],
): { selector: Selector; value: string } | undefined {
  const texts = [row, ...descendants(row)].flatMap((e) => [e.name, e.value ?? ''].filter(Boolean))
  for (const leaf of leaves) {
    if (leaf.source === 'header' || (typeof leaf.value !== 'string' && typeof leaf.value !== 'number'))
      continue
    const value = String(leaf.value)
    // The value as a whole word of the row ("21" is not in "KT-210"'s row).
    const whole = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegex(value)}($|[^\\p{L}\\p{N}])`, 'u')
    if (value.length < 2 || !texts.some((t) => whole.test(t))) continue
    // A control named by the value itself (the record's own link "PEN-RED", "Bug #3") is named
    // by each call's own value, never the sample's.
    const name = whole.test(element.name)
      ? element.name.replace(new RegExp(escapeRegex(value), 'u'), `{{${leaf.path}}}`)
      : element.name
    const selector: Selector = {
      fingerprints: [{ by: 'inRow', rowText: `{{${leaf.path}}}`, role: element.role, name, match: 'exact' }],
      description: `the “${element.name}” ${element.role} of the row showing “${value}”`,
    }
    const rendered = renderSelector(selector, nested(leaf.path, leaf.value))
    const found = resolveSelector(index.root, rendered)
    if (found.status === 'found' && found.element === element) return { selector, value }
  }
  return undefined
}

/**
 * A task that reads or changes a record the sample names: the link in that record's own row whose
 * text shows the value ("PEN-RED" in the SKU column, "Bug #3") opens the record, whatever its words.
 */
export function ownRecordLink(
  reading: PromptReading,
  index: TreeIndex,
  element: UiElement,
  leaves: InputLeaf[],
): { selector: Selector; value: string } | undefined {
  if (element.role !== 'link' || (reading.verb !== FIND && reading.verb !== EDIT)) return undefined
  const found = rowSelector(index, element, leaves)
  return found?.selector.fingerprints.some((f) => f.by === 'inRow' && f.name.includes('{{'))
    ? found
    : undefined
}
const FIND = actionOf('find')
const EDIT = actionOf('edit')

function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>(
      (inner, key, i, all) => ({ [key]: i === all.length - 1 ? value : inner }),
      {},
    )
}

/** Stems of the returned things' nouns, without the words for ids and numbers. */
function returnedThings(reading: PromptReading): string[] {
  const generic = new Set(stems('id number no ref reference code key value values url link address'))
  return [
    ...new Set(reading.returns.flatMap((words) => stems(words.join(' ')).filter((s) => !generic.has(s)))),
  ]
}

export function indexOf(root: UiElement): TreeIndex {
  return indexTree(root)
}

function safeUrl(href: string, base?: string): URL | undefined {
  try {
    return new URL(href, base)
  } catch {
    return undefined
  }
}

/** A box for searching: typed as search, or named/hinted "Search…", "Find…", "Filter…", "Tag filter". */
export function isSearchBox(element: UiElement): boolean {
  if (element.inputType === 'search') return true
  // "Search…", "Find orders", and a name that says it filters ("Tag filter:", "Filter by tag").
  const name = `${element.placeholder ?? ''}`.trim() || element.name.trim()
  return /^(search|find|filter|look ?up)\b/i.test(name) || /\bfilter\b/i.test(name)
}

/**
 * The screen's title, open dialog, first heading or open tab names the task's object ("Select:
 * products" for a product; a desktop app's "Contacts" tab or "Manage Accounts" dialog for an account).
 */
export function aboutObject(screen: Snapshot, reading: PromptReading): boolean {
  const all = indexOf(screen.root).all
  const heading = all.find((e) => e.role === 'heading')?.name ?? ''
  const tabs = all.filter((e) => e.role === 'tab' && e.states.includes('selected')).map((e) => e.name)
  const scope = activeScope(screen.root)
  const dialog = scope === screen.root ? '' : scope.name
  const words = new Set(stems(`${screen.window.title} ${dialog} ${heading} ${tabs.join(' ')}`))
  return reading.object.some((o) => words.has(o))
}

const SECTIONS = new Set(['listitem', 'menuitem', 'treeitem', 'group'])

/**
 * A control named only by an action ("Add New", "New", "Create") is read with the name of the
 * menu entry or section it sits in ("Posts › Add New"), as a person reads a menu: the words of
 * its section are the object it acts on. Undefined for a control whose name says more.
 */
export function sectionName(index: TreeIndex, element: UiElement): string | undefined {
  const words = splitWords(element.name)
  if (words.length === 0 || !words.every((w) => actionOf(w) !== undefined)) return undefined
  const holds = (outer: UiElement): boolean => outer === element || outer.children.some(holds)
  let depth = 0
  for (let a = index.parent.get(element); a && depth < 6; a = index.parent.get(a), depth++) {
    if (!SECTIONS.has(a.role)) continue
    const label = a.children.find((c) => !holds(c) && c.name.trim() !== '')
    if (label) return label.name.trim()
  }
  return undefined
}
