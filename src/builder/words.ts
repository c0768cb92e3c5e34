// How the builder compares words: prompt words with window titles and button names, input keys
// with field labels. Everything goes through one pipeline (split identifiers, drop filler words,
// canonicalise a few synonyms, Porter-stem), so "customers", "Customer" and "customerId" meet.
import { stemmer } from 'stemmer'

/** Words that carry no meaning for matching (articles, pronouns, glue, politeness). */
const STOP_WORDS = new Set(
  (
    'a an the this that these those it its their his her our my your me us them and or of to for by ' +
    'with in on at into from via using inside within as is are be been was were will would should can ' +
    'please then also all any some each every one return returns returning give back get gets'
  ).split(' '),
)

/**
 * Verbs people use for the same action, mapped to one canonical word, so "Create a customer"
 * meets a "New customer" button and "Find … by id" meets "Search" or "Look up".
 */
const SYNONYMS: Record<string, string[]> = {
  create: ['create', 'new', 'add', 'register', 'insert', 'make', 'write', 'compose'],
  find: [
    'find',
    'search',
    'lookup',
    'look',
    'show',
    'view',
    'query',
    'retrieve',
    'fetch',
    'display',
    'list',
    'browse',
  ],
  // Changing a record's state is editing it: "Close the ticket", "Assign the case to …".
  edit: [
    'edit',
    'update',
    'change',
    'set',
    'modify',
    'amend',
    'close',
    'reopen',
    'resolve',
    'assign',
    'rename',
    'mark',
  ],
  delete: ['delete', 'remove', 'erase'],
  save: ['save', 'store', 'submit', 'send', 'confirm', 'apply'],
}
/** Field-name words with a common other spelling, mapped to the words a label would use. */
const FIELD_WORDS: Record<string, string[]> = {
  surname: ['last', 'name'],
  forename: ['first', 'name'],
  telephone: ['phone'],
  tel: ['phone'],
  mobile: ['phone'],
  mail: ['email'],
  zip: ['postal', 'code'],
  postcode: ['postal', 'code'],
  qty: ['quantity'],
  desc: ['description'],
  birthday: ['birth', 'date'],
  dob: ['birth', 'date'],
  birthdate: ['birth', 'date'],
  // A record's one-line name: trackers say "summary", mail says "subject".
  summary: ['title'],
  subject: ['title'],
  headline: ['title'],
  num: ['number'],
  nr: ['number'],
}
const CANONICAL = new Map<string, string>(
  Object.entries(SYNONYMS).flatMap(([canonical, words]) => words.map((w) => [w, canonical] as const)),
)

/** Splits text and identifiers into lower-case words: "customerId" → customer id, "tkt_subject" → tkt subject. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

function stemWord(word: string): string {
  return stemmer(CANONICAL.get(word) ?? word)
}

/** The meaningful words of a text as stems, in order, without repeats. */
export function stems(text: string): string[] {
  const words = splitWords(text)
    .filter((w) => !STOP_WORDS.has(w))
    .flatMap((w) => FIELD_WORDS[w] ?? [w])
  return [...new Set(words.map(stemWord))]
}

/** Lower-case letters and digits only: "First name", "firstName" and "first-name" are equal. */
export function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
}

/**
 * 0…1: how well two word lists name the same thing. Dice overlap of stems (a shared prefix of 3+
 * letters counts 0.8, for abbreviations, and so does a compound's last word: "Wikitext" for text); when one side's words all appear in the other ("id"
 * in "Customer ID") at least 0.8, since labels often add a qualifier that keys leave out.
 */
export function stemSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0
  const credit = (word: string, others: string[]): number =>
    others.includes(word)
      ? 1
      : others.some(
            (o) =>
              (Math.min(o.length, word.length) >= 3 && (o.startsWith(word) || word.startsWith(o))) ||
              compoundOf(o, word) ||
              compoundOf(word, o),
          )
        ? 0.8
        : 0
  const fromA = a.map((w) => credit(w, b))
  const fromB = b.map((w) => credit(w, a))
  const dice = (fromA.reduce((x, y) => x + y, 0) + fromB.reduce((x, y) => x + y, 0)) / (a.length + b.length)
  const contained = fromA.every((c) => c === 1) || fromB.every((c) => c === 1)
  if (contained) return Math.max(dice, 0.8)
  // A one-word key that is the last word of a compound in the label ("text" in "Wikitext source
  // editor") names that field nearly as well as being one of its words.
  const [one, other] = a.length === 1 ? [a[0]!, b] : b.length === 1 ? [b[0]!, a] : ['', []]
  return one && other.some((o) => compoundOf(o, one)) ? Math.max(dice, 0.75) : dice
}

/** "wikitext" holds "text", "postcode" holds "code": a compound ending in a whole word of 4+ letters. */
function compoundOf(long: string, short: string): boolean {
  return short.length >= 4 && long.length >= short.length + 3 && long.endsWith(short)
}

/** Similarity of two texts (a key and a label): equal when only case and separators differ. */
export function textSimilarity(a: string, b: string): number {
  if (compact(a) !== '' && compact(a) === compact(b)) return 1
  return stemSimilarity(stems(a), stems(b))
}

/** How many of the wanted stems the text mentions (prompt words in a button name or title). */
export function mentions(wanted: readonly string[], text: string): string[] {
  const have = new Set(stems(text))
  return wanted.filter((w) => have.has(w))
}

/** A JSON key for a label a person reads: "Customer ID" → customerId, "E-mail address" → eMailAddress. */
export function camelKey(label: string): string {
  const words = splitWords(label)
  if (words.length === 0) return 'value'
  const key = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('')
  return /^\d/.test(key) ? `v${key}` : key
}

/** Canonical stem of an action verb ("New" → create), or undefined for other words. */
export function actionOf(word: string): string | undefined {
  const canonical = CANONICAL.get(word.toLowerCase())
  return canonical && stemmer(canonical)
}

/** The action a control's first word names ("Delete Principal" → delete), if any. */
export function firstAction(name: string): string | undefined {
  const first = name.trim().split(/\s+/)[0]
  return first ? actionOf(first) : undefined
}
