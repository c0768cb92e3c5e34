// What the builder reads from the teaching prompt, without a language model: the words of the
// task ("create", "customer"), the app it names ("in the CRM", "in SAP") and what it should
// return ("its id", "the name and country").
import { splitWords, stems } from './words.ts'

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
}

const APP_POSITION =
  /\b(?:in|on|into|inside|within|using|via|from)\s+(?:the\s+|our\s+|my\s+|a\s+|an\s+)?([A-Za-z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*)/g
const RETURN_CLAUSE =
  /\b(?:return|returns|returning|give back|get back|report back|reply with|respond with)\b(.*)$/is
/** Words that introduce or qualify a returned thing but are not part of its name. */
const RETURN_FILLER = new Set(
  'its it the their his her a an new created resulting generated his that this them value values of'.split(
    ' ',
  ),
)

export function readPrompt(prompt: string): PromptReading {
  const text = prompt.replace(/\s+/g, ' ').trim()
  const returnMatch = RETURN_CLAUSE.exec(text)
  const task = returnMatch ? text.slice(0, returnMatch.index) : text
  const namedApps: string[] = []
  const appStems: string[] = []
  for (const match of task.matchAll(APP_POSITION)) {
    const phrase = match[1]!.replace(/[.,;:!?]+$/, '')
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
    taskStems: stems(task),
    namedApps,
    appStems: [...new Set(appStems)],
    returns: returnMatch ? returnPhrases(returnMatch[1] ?? '') : [],
  }
}

/** "the name and country." → [["name"], ["country"]]; "its id" → [["id"]]. */
function returnPhrases(clause: string): string[][] {
  return clause
    .split(/,|;|\band\b|&|\bplus\b/i)
    .map((part) => splitWords(part).filter((w) => !RETURN_FILLER.has(w)))
    .filter((words) => words.length > 0)
}
