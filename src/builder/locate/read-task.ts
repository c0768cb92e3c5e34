// The first thing a build does: read what the task says (its words, the app it names, what it
// asks to return) and tell the person teaching, before looking for the app's window.
import { inputTexts } from '../generalise.ts'
import type { BuildSession } from '../session.ts'
import { type PromptReading, readPrompt, spoken } from './prompt.ts'

export interface Task {
  reading: PromptReading
  /** The sample's input values as texts (what an outcome message may echo). */
  inputs: string[]
}

export function readTask(session: BuildSession): Task {
  const { prompt, sample } = session.request
  const reading = readPrompt(prompt)
  const inputs = inputTexts(sample.input)
  const returns = reading.returns.map((w) => `“${w.join(' ')}”`).join(', ')
  session.progress(
    'locate',
    `The task’s words: ${spoken(reading, reading.taskStems)}` +
      (reading.namedApps.length ? `; it names the app “${reading.namedApps.join('”, “')}”` : '') +
      (returns ? `; it asks to return ${returns}` : ''),
    {
      words: reading.taskStems,
      namedApps: reading.namedApps,
      returns: reading.returns.map((w) => w.join(' ')),
    },
  )
  return { reading, inputs }
}

/** A task that reads a record rather than creating or changing one. */
export function lookingUp(reading: PromptReading): boolean {
  return reading.verb === undefined || !['creat', 'edit', 'delet', 'save'].includes(reading.verb)
}
