// Evidence for an output (docs/builder.md, "Outputs"): a generated value is returned only when
// the screen after the submit shows it next to words that mean its key — a label ("Booking
// number: FD-77832"), or the key's words in the same text ("Issue #7 created" for issueNumber) —
// never by position or by being the only number in sight. Without such evidence the builder asks.
import { indexTree } from '../../automation/index.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { idLikeTokens } from '../generalise.ts'
import { CONFIDENT } from '../map/field-scores.ts'
import { compact, splitWords, stems, textSimilarity } from '../words.ts'
import { keyed, type LabelValue, labelValuePairs } from './label-values.ts'

/** Words that say "the identifier of" rather than what is identified: id, number, #, code, ref. */
const IDENTIFIER = new Set([
  'id',
  'number',
  'no',
  'num',
  'nr',
  'ref',
  'reference',
  'code',
  'key',
  'identifier',
])
const DATE = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}:\d{2}(:\d{2})?)$/
/** A date as a screen shows it, with or without its time: 2025-03-03 12:05, 3.3.2025, 3 March 2025, Mar 3, 2025. */
const SHOWN_DATE = new RegExp(
  '^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\\s+)?' +
    '(?:\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}' +
    '|\\d{1,2}\\.?\\s+[a-z]{3,9}\\.?,?\\s+\\d{4}|[a-z]{3,9}\\.?\\s+\\d{1,2},?\\s+\\d{4})' +
    '(?:[,T\\s]+(?:at\\s+)?\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s*[ap]\\.?m\\.?)?)?$',
  'i',
)
const MONTH =
  /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)$/i
const WEEKDAY = /^(mon|tue(s)?|wed(nes)?|thu(rs)?|fri|sat(ur)?|sun)(day)?$/i
/** Keys that ask for when something happened: date, sentDate, sentAt, receivedOn, time. */
const DATE_KEY = /^(date|datetime|time|timestamp|when)$/
/**
 * Message headers name their parties by a preposition ("From", "To"), which the word pipeline
 * drops as glue: a key for the party means that header word.
 */
const PARTY_HEADER = new Map([
  ['sender', 'from'],
  ['recipient', 'to'],
  ['addressee', 'to'],
])
const NOT_VALUES = new Set<UiRole>([
  'button',
  'textbox',
  'combobox',
  'option',
  'checkbox',
  'radio',
  'menuitem',
])

/** The key's words split into what it names ("booking") and whether it asks for an identifier. */
export function keyMeaning(key: string): { subject: string[]; identifier: boolean } {
  const words = splitWords(key)
  const identifier = words.some((w) => IDENTIFIER.has(w))
  const subject = stems(words.filter((w) => !IDENTIFIER.has(w)).join(' '))
  return { subject, identifier }
}

/** A label means the key when it names all of the key's subject (and, for an id, says so or shows “#”). */
export function labelMeansKey(label: string, key: string): boolean {
  const { subject, identifier } = keyMeaning(key)
  const labelWords = splitWords(label)
  const keyWords = splitWords(key)
  if (labelWords.length === 1 && keyWords.length === 1 && PARTY_HEADER.get(keyWords[0]!) === labelWords[0])
    return true
  const words = stems(label)
  const named = subject.every((s) => words.some((w) => w === s || (s.length >= 4 && w.startsWith(s))))
  if (subject.length === 0)
    return identifier && (splitWords(label).some((w) => IDENTIFIER.has(w)) || /#/.test(label))
  if (!named) return textSimilarity(label, splitWords(key).join(' ')) >= CONFIDENT
  return true
}

export interface Evidenced {
  element: UiElement
  /** The value as shown. */
  token: string
  /** The text it sits in (for a message) or the label's value cell. */
  text: string
  /** The words that mean the key: a label, or the message around the token. */
  label: string
  /** A labelled pair, read whole (or with its extract); otherwise a token inside a text. */
  pair?: LabelValue
}

/**
 * The labelled values and id-like tokens after the submit whose words mean `key`, best first.
 * Labels first: a pair's label means the key. Then tokens in fresh texts whose other words
 * name the key's subject (and, for an id key, an identifier word or “#” right before it).
 */
export function evidencedValues(
  after: UiElement,
  appeared: readonly UiElement[],
  key: string,
  inputs: readonly string[],
  task: { stems: readonly string[]; message?: UiElement } = { stems: [] },
): Evidenced[] {
  const isInput = (text: string) => inputs.some((v) => compact(v) === compact(text))
  const fresh = new Set(appeared)
  const out: Evidenced[] = []
  const { subject, identifier } = keyMeaning(key)
  // An identifier the app made up is none of the caller's values: "The item “MUG-001 Coffee mug”
  // was added" names the new item by the caller's SKU and name, not by its id.
  const ofInput = (token: string) => inputs.some((v) => compact(v).includes(compact(token)))
  // An identifier is a short value holding a made-up token: a message or a mail's headers beside
  // "Ticket created" hold numbers (its date, its time) but are not the ticket's number.
  const madeUp = (value: string, labelled = false) =>
    !identifier ||
    (value.length <= 80 &&
      value.trim().split(/\s+/).length <= 4 &&
      // Under a label that means the key, only a token that is one of the caller's values is
      // theirs: a short id ("7") is inside many a phone number, and still the record's own.
      idLikeTokens(value).some((t) => !(labelled ? isInput(t) : ofInput(t)) && !DATE.test(t)))
  for (const pair of keyed(labelValuePairs(after, fresh)))
    if (labelMeansKey(pair.label, key) && pair.value && !isInput(pair.value) && madeUp(pair.value, true)) {
      const noted = !pair.extract && notedValue(pair.element)
      out.push(
        noted
          ? { element: noted, token: noted.name.trim(), text: pair.value, label: pair.label, pair }
          : { element: pair.element, token: pair.value, text: pair.value, label: pair.label, pair },
      )
    }
  // Side by side is weaker than a caption or a table: for an identifier, the value must look
  // like one ("View Ticket" beside a link “admin” names no ticket's id).
  // The same value found twice, once as the text inside a cell and once as the cell, is one value.
  const parents = indexTree(after).parent
  const holds = (outer: UiElement, inner: UiElement) => {
    for (let e: UiElement | undefined = inner; e; e = parents.get(e)) if (e === outer) return true
    return false
  }
  for (const pair of adjacentPairs(after, fresh))
    if (
      labelMeansKey(pair.label, key) &&
      madeUp(pair.value) &&
      !isInput(pair.value) &&
      !out.some((o) => holds(o.element, pair.element) || holds(pair.element, o.element))
    )
      out.push({ element: pair.element, token: pair.value, text: pair.value, label: pair.label })
  for (const element of appeared) {
    if (NOT_VALUES.has(element.role) || out.some((o) => o.element === element)) continue
    for (const token of idLikeTokens(element.name)) {
      // A date is never an identifier, whatever words sit around it.
      if (isInput(token) || (identifier && DATE.test(token))) continue
      const before = element.name.slice(0, element.name.indexOf(token))
      // A number that counts things ("Found 1 ticket", "3 results", "Watchers (0)") is a count,
      // not an identifier of one of them.
      if (identifier && countsThings(element.name, token, subject)) continue
      const rest = stems(element.name.replace(token, ' '))
      const names = subject.length > 0 && subject.every((s) => rest.some((w) => w === s || w.startsWith(s)))
      const marked = /(#|\bno\.?|\bnumber|\bid|\bref(erence)?|\bcode)\s*:?\s*$/i.test(before)
      // A bare "id" is the id of what the task is about: the token beside the task's own noun
      // ("Customer C-1040 created" for "Create a customer … return its id"), or in the app's
      // message about the submit.
      const aboutTask =
        subject.length === 0 &&
        identifier &&
        (inMessage(element, task.message) || rest.some((w) => task.stems.includes(w)))
      // A number marked as one ("#1: Printer jam") is the number of what the task is about
      // ("ticketNumber" for "Open a ticket …"): the key's subject is the task's own noun.
      const ofTask =
        identifier && marked && subject.length > 0 && subject.every((s) => task.stems.includes(s))
      if (names || ofTask || (subject.length === 0 && identifier && (marked || aboutTask)))
        out.push({ element, token, text: element.name, label: element.name })
    }
  }
  if (out.length === 0 && meansDate(key)) out.push(...shownDates(after, appeared, isInput))
  return out
}

/** The plain number token counts something: the word after it is a thing counted, or it is in brackets. */
function countsThings(text: string, token: string, subject: readonly string[]): boolean {
  if (!/^\d+$/.test(token)) return false
  const at = text.indexOf(token)
  const before = text.slice(0, at)
  const next = text.slice(at + token.length).match(/^\s+(\p{L}+)/u)?.[1]
  if (/\(\s*$/.test(before) && /^\s*\)/.test(text.slice(at + token.length))) return true
  if (!next) return false
  const word = stems(next)[0] ?? ''
  return subject.includes(word) || COUNTED.test(next)
}
/** Words that follow a count: "3 results", "12 items", "1 match". */
const COUNTED = /^(results?|items?|matches|match|entries|entry|records?|rows?|hits?)$/i

/**
 * A value shown with a note in brackets after it ("e3f2c5… (1)", "FD-77832 (draft)"): the part
 * that shows the value alone, when the value cell holds it as its own text.
 */
function notedValue(cell: UiElement): UiElement | undefined {
  const parts = cell.children.filter((c) => c.name.trim() !== '')
  if (parts.length !== 2 || !/^[([][^()[\]]*[)\]]$/.test(parts[1]!.name.trim())) return undefined
  const [value] = parts
  return value!.role !== 'text' || NOT_VALUES.has(value!.role) || /\s/.test(value!.name.trim())
    ? undefined
    : value
}

/** The key asks for a date or time ("date", "sentAt", "receivedOn"), not an identifier. */
export function meansDate(key: string): boolean {
  const words = splitWords(key)
  if (words.some((w) => IDENTIFIER.has(w))) return false
  return words.some((w) => DATE_KEY.test(w)) || (words.length >= 2 && /^(at|on)$/.test(words.at(-1)!))
}

/**
 * With no label naming a date key, a value is evidence by its type: an element that shows a
 * date and nothing else ("From Maria on 2025-03-03 12:05" shows it as its own text), in what
 * appeared or beside it (the same date may have shown elsewhere before, in the result's row).
 * Several different dates are a question (the caller's rule for two values).
 */
function shownDates(
  after: UiElement,
  appeared: readonly UiElement[],
  isInput: (text: string) => boolean,
): Evidenced[] {
  const out: Evidenced[] = []
  const index = indexTree(after)
  const groups = appeared.flatMap((a) => {
    const parent = index.parent.get(a)
    return parent && parent !== after ? parent.children : [a]
  })
  const shown = new Set(groups.flatMap((g) => indexTree(g).all))
  for (const element of shown) {
    const text = element.name.replace(/\s+/g, ' ').trim()
    if (NOT_VALUES.has(element.role) || element.children.some((c) => c.name.trim() === text)) continue
    if (!SHOWN_DATE.test(text) || isInput(text) || !plausibleDate(text)) continue
    out.push({ element, token: text, text, label: 'a date' })
  }
  return out
}

/** Words in a shown date are a month's name, not any word ("version 3 2024"). */
function plausibleDate(text: string): boolean {
  const words = text.match(/[a-z]{3,}/gi) ?? []
  return words.every((w) => MONTH.test(w) || WEEKDAY.test(w) || /^(at|am|pm)$/i.test(w))
}

/**
 * A label and its value side by side with no "Label:" text or table to join them: a term and its
 * definition (a description list's rowheader and cell), or a short label followed by a sibling value (a card's "Booking number" / "FD-77832").
 */
function adjacentPairs(
  root: UiElement,
  fresh: ReadonlySet<UiElement>,
): { label: string; value: string; element: UiElement }[] {
  const index = indexTree(root)
  const isFresh = (element: UiElement) => {
    for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (fresh.has(e)) return true
    return false
  }
  const out: { label: string; value: string; element: UiElement }[] = []
  for (const parent of index.all) {
    const kids = parent.children.filter((c) => c.name.trim() !== '')
    for (let i = 0; i + 1 < kids.length; i++) {
      const label = kids[i]!
      const value = kids[i + 1]!
      if (NOT_VALUES.has(value.role) || !isFresh(value)) continue
      const labelText = label.name.trim().replace(/:$/, '')
      const isLabel =
        label.role === 'rowheader' ||
        label.role === 'columnheader' ||
        ((label.role === 'text' || label.role === 'generic') &&
          labelText.length <= 40 &&
          !/\d/.test(labelText) &&
          value.role !== 'heading')
      if (isLabel && value.name.trim().length <= 200)
        out.push({ label: labelText, value: value.name.trim(), element: value })
    }
  }
  return out
}

/** The element is the app's message about the submit, inside it, or holds it. */
function inMessage(element: UiElement, message: UiElement | undefined): boolean {
  if (!message) return false
  return indexTree(message).all.includes(element) || indexTree(element).all.includes(message)
}
