// A BuildIO for tests: records progress and answers questions from a script. A question the
// script does not expect is recorded and makes ask() reject, so the build (and the test) fails.
import type { BuildIO, Question, QuestionKind } from '../../src/builder/contract.ts'

export interface Reply {
  kind: QuestionKind
  /** Picks the answer; helpers below choose options by their labels. */
  answer: (question: Question) => string | string[]
}

export interface Transcript {
  io: BuildIO
  progress: { stage: string; message: string; data?: Record<string, unknown> }[]
  questions: { question: Question; answer: string | string[] }[]
  unexpected: Question[]
  /** Progress and questions in order, one line each, for reading a build like a person would. */
  lines: string[]
}

export function scriptedIO(replies: Reply[] = []): Transcript {
  const queue = [...replies]
  const transcript: Transcript = {
    progress: [],
    questions: [],
    unexpected: [],
    lines: [],
    io: {
      progress(stage, message, data) {
        transcript.progress.push({ stage, message, data })
        transcript.lines.push(`[${stage}] ${message}`)
      },
      async ask(question) {
        const at = queue.findIndex((r) => r.kind === question.kind)
        if (at < 0) {
          transcript.unexpected.push(question)
          transcript.lines.push(`[question] UNEXPECTED ${question.kind}: ${question.text}`)
          throw new Error(`Unexpected question (${question.kind}): ${question.text}`)
        }
        const answer = queue.splice(at, 1)[0]!.answer(question)
        transcript.questions.push({ question, answer })
        const options = question.options.map((o) => o.label).join(' | ')
        transcript.lines.push(`[question] ${question.kind}: ${question.text} [${options}]`)
        transcript.lines.push(`[answer] ${Array.isArray(answer) ? answer.join(', ') : answer}`)
        return answer
      },
    },
  }
  return transcript
}

/** The value of the option with this label (fails loudly when there is none). */
export function optionLabelled(label: string): (question: Question) => string {
  return (question) => {
    const option = question.options.find((o) => o.label === label)
    if (!option)
      throw new Error(`No option “${label}” in: ${question.options.map((o) => o.label).join(', ')}`)
    return option.value
  }
}

/** Values of the options whose labels start with these texts ("Name" matches "Name: Ada Lovelace"). */
export function optionsStartingWith(...prefixes: string[]): (question: Question) => string[] {
  return (question) =>
    prefixes.map((prefix) => {
      const option = question.options.find((o) => o.label.startsWith(prefix))
      if (!option)
        throw new Error(
          `No option starting “${prefix}” in: ${question.options.map((o) => o.label).join(', ')}`,
        )
      return option.value
    })
}
