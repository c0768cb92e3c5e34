// What the builder reads from the teaching prompt, without a language model: the words of the
// task ("create", "customer"), the app it names ("in the CRM", "in SAP") and what it should
// return ("its id", "the name and country"). Position decides what a word is: the task's verb is
// the imperative at the start of a clause, so a page or button named like a verb ("Returns",
// "Save as draft", "Print") is a name, not the task.
import { stemmer } from 'stemmer'
import { actionOf, splitWords, stems } from '../words.ts'

/** Stems shown as the prompt's own words: "custom, crm" → "customer, CRM". */
export function spoken(reading: PromptReading, list: string[]): string {
  return list.map((s) => reading.words.get(s) ?? s).join(', ')
}

export interface PromptReading {
  text: string
  /** Stems of the whole prompt: for finding the app's window. */
  stems: string[]
  /** Stems of the task part (before "and return …"): for finding buttons and screens. */
  taskStems: string[]
  /** Each stem's word as the prompt wrote it, for messages people read ("custom" → "customer"). */
  words: Map<string, string>
  /** Apps the prompt names in a capitalised word after "in/on/using…" ("CRM", "SAP"): a window must show each. */
  namedApps: string[]
  /** Stems of any word in that position, capitalised or not ("in the helpdesk"): weigh more when scoring windows. */
  appStems: string[]
  /** The things to return, each as its words ("ticket number" → ["ticket", "number"]). */
  returns: string[][]
  /** The task's verb as a canonical stem ("Open a ticket" → open, "Add a customer" → create), if any. */
  verb?: string
  /** Stems of what the verb acts on ("a new support ticket" → new, support, ticket). */
  object: string[]
  /** Stems of names the prompt quotes or capitalises mid-sentence ("the Returns page"): names, never verbs. */
  names: string[]
}

const APP_POSITION =
  /\b(?:in|on|into|inside|within|using|via|from)\s+(?:the\s+|our\s+|my\s+|a\s+|an\s+)?([A-Za-z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*)/g
/**
 * "… and return X", "…, then give back X", "Return X of …" at the start: the verb in a clause's
 * first position. A capitalised "Returns" inside a clause is a page's name, not this verb.
 */
const RETURN_CLAUSE =
  /(?:^|[,;:.]\s*|\b(?:and|then|to)\s+)(?:return|returns|returning|give back|get back|report back|reply with|respond with)\b(.*)$/s
/** Words that end the object of the verb: prepositions and clause glue. */
const OBJECT_END = new Set(
  'in on into inside within using via from at to for by with and then where whose which that who when if so'.split(
    ' ',
  ),
)
const UI_PARTS =
  /^(page|pages|tab|tabs|screen|menu|section|button|link|form|list|view|dialog|panel|window|field|box|area|module)$/i
const LEADING_FILLER = new Set('please kindly just now first then'.split(' '))
/** Words that introduce or qualify a returned thing but are not part of its name. */
const RETURN_FILLER = new Set(
  'its it the their his her a an new created resulting generated his that this them value values of'.split(
    ' ',
  ),
)

export function readPrompt(prompt: string): PromptReading {
  const text = prompt.replace(/\s+/g, ' ').trim()
  const returnMatch = RETURN_CLAUSE.exec(text) ?? /^(?:return|give back)\b(.*)$/is.exec(text)
  const task = returnMatch ? text.slice(0, returnMatch.index) : text
  const names = quotedOrCapitalised(task)
  const namedApps: string[] = []
  const appStems: string[] = []
  for (const match of task.matchAll(APP_POSITION)) {
    const phrase = match[1]!.replace(/[.,;:!?]+$/, '')
    // "on the Returns page", "in the Settings tab": a part of the app, not an app.
    const next = task.slice((match.index ?? 0) + match[0].length).match(/^\s+(\p{L}+)/u)?.[1]
    if (next && UI_PARTS.test(next)) continue
    appStems.push(...stems(phrase))
    // Only a capitalised name is surely an app; "in the list" is not.
    if (/^[A-Z]/.test(phrase)) namedApps.push(phrase)
  }
  const words = new Map<string, string>()
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    const [stem] = stems(word)
    if (stem && !words.has(stem)) words.set(stem, word)
  }
  return {
    text,
    words,
    stems: stems(text),
    taskStems: [...new Set([...stems(task), ...names])],
    namedApps,
    appStems: [...new Set(appStems)],
    returns: returnMatch ? returnPhrases(returnMatch[1] ?? '') : [],
    ...verbAndObject(task),
    names,
  }
}

/**
 * The imperative verb that opens the task and the words it acts on, up to the first preposition:
 * "Open a new ticket in the helpdesk" → open, [new, ticket]. Without an opening verb, the first
 * lower-case action word ("I want to add a customer") counts; capitalised words mid-sentence are names.
 */
function verbAndObject(task: string): { verb?: string; object: string[] } {
  const words = task.split(/\s+/).filter(Boolean)
  let at = 0
  while (at < words.length && LEADING_FILLER.has(bare(words[at]!).toLowerCase())) at++
  const first = words[at] ? bare(words[at]!) : ''
  let verbAt = first && /^[A-Za-z]/.test(first) && isVerbLike(first) ? at : -1
  if (verbAt < 0)
    verbAt = words.findIndex((w, i) => i > at && /^[a-z]/.test(bare(w)) && actionOf(bare(w)) !== undefined)
  if (verbAt < 0) return { object: [] }
  const verbWord = bare(words[verbAt]!).toLowerCase()
  // A task that opens by asking to be told ("Tell me where …", "Tell us which …"), or to read or
  // see something, reads: it is a lookup. Only as the opening verb: "Read" is also a mail flag's
  // name, and "Tell Bob that …" sends a message.
  // Not when the task goes on to write ("Read the meter and submit the reading"), nor "see that …"
  // ("See that the invoice is paid" asks to make it so).
  const next = bare(words[verbAt + 1] ?? '').toLowerCase()
  const writesLater = words.slice(verbAt + 1).some((w) => WRITING.has(actionOf(bare(w).toLowerCase()) ?? ''))
  const toldVerb =
    verbAt === at &&
    !writesLater &&
    ((verbWord === 'tell' && /^(me|us)$/.test(next)) ||
      verbWord === 'read' ||
      (verbWord === 'see' && !/^(that|to)$/.test(next)))
  const object: string[] = []
  for (const word of words.slice(verbAt + 1)) {
    const w = bare(word).toLowerCase()
    if (OBJECT_END.has(w)) break
    object.push(...stems(w))
    if (/[,;:.]$/.test(word)) break
  }
  const verb = toldVerb ? actionOf('find') : (actionOf(verbWord) ?? stems(verbWord)[0])
  return { verb, object: [...new Set(object)] }
}

/** Actions that write: a task that names one later is not only reading. */
const WRITING = new Set(['create', 'edit', 'delete', 'save'].map((w) => actionOf(w)!))

/** A word at the head of a clause reads as a verb unless it is plainly a determiner or a name in quotes. */
function isVerbLike(word: string): boolean {
  const w = word.toLowerCase()
  if (actionOf(w)) return true
  return !/^(the|a|an|in|on|for|from|with|my|our|this|that|i|we|when|if)$/.test(w) && !/^["“'‘]/.test(word)
}

const bare = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')

const ARTICLES = new Set('a an the of to in on as and or for'.split(' '))

/**
 * Stems of a name as written, keeping words the task reading drops ("Returns", "Back office"):
 * for matching the names a prompt quotes against controls.
 */
export function nameStems(text: string): string[] {
  return [
    ...new Set(
      splitWords(text)
        .filter((w) => !ARTICLES.has(w))
        .map((w) => stemmer(w)),
    ),
  ]
}

/** Quoted phrases and capitalised words not at a clause's start: names of pages, buttons, apps. */
function quotedOrCapitalised(task: string): string[] {
  const out: string[] = []
  for (const m of task.matchAll(/["“‘']([^"”’']+)["”’']/g)) out.push(...nameStems(m[1]!))
  const words = task.split(/\s+/)
  words.forEach((word, i) => {
    const clean = bare(word)
    const clauseStart = i === 0 || /[,;:.]$/.test(words[i - 1] ?? '')
    if (!clauseStart && /^\p{Lu}/u.test(clean)) out.push(...nameStems(clean))
  })
  return [...new Set(out)]
}

/** "the name and country." → [["name"], ["country"]]; "its id" → [["id"]]. */
function returnPhrases(clause: string): string[][] {
  return clause
    .split(/,|;|\band\b|&|\bplus\b/i)
    .map((part) => splitWords(part).filter((w) => !RETURN_FILLER.has(w)))
    .filter((words) => words.length > 0)
}
