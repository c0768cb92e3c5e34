// A BuildIO for tests: records progress and answers questions from a script. A question the
// script does not expect is recorded and makes ask() reject, so the build (and the test) fails.
// A script that answers `demonstrate` (see `demonstrate` below) makes a BuildIO that can hand
// over recordings; any other cannot, as a build worker without the agent's recorder.
import type {
  BuildIO,
  BuildRequest,
  DesktopPort,
  Question,
  QuestionKind,
} from '../../src/builder/contract.ts'
import { BuildSession } from '../../src/builder/session.ts'
import type { Recording } from '../../src/protocol/recording.ts'

export interface Reply {
  kind: QuestionKind
  /** Picks the answer; helpers below choose options by their labels. */
  answer: (question: Question) => string | string[]
  /** `demonstrate`: does the task (as a person would) and returns its recording; the answer is its id. */
  record?: (question: Question) => Recording | Promise<Recording>
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
  const recordings = new Map<string, Recording>()
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
        const reply = queue.splice(at, 1)[0]!
        let answer: string | string[]
        if (reply.record) {
          answer = `recording-${recordings.size + 1}`
          recordings.set(answer, await reply.record(question))
        } else answer = reply.answer(question)
        transcript.questions.push({ question, answer })
        const options = question.options.map((o) => o.label).join(' | ')
        transcript.lines.push(`[question] ${question.kind}: ${question.text} [${options}]`)
        transcript.lines.push(`[answer] ${Array.isArray(answer) ? answer.join(', ') : answer}`)
        return answer
      },
    },
  }
  if (replies.some((r) => r.record))
    transcript.io.recording = async (id) => {
      const recording = recordings.get(id)
      if (!recording) throw new Error(`No recording “${id}”`)
      return recording
    }
  return transcript
}

/** Answers `demonstrate` with the recording `record` makes (acting on the app, or made up from snapshots). */
export function demonstrate(record: (question: Question) => Recording | Promise<Recording>): Reply {
  return { kind: 'demonstrate', answer: () => '', record }
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

/** A build session whose desktop must not be used: the decisions tested with it only read a screen. */
export function offlineSession(prompt: string, replies: Reply[] = []) {
  const script = scriptedIO(replies)
  const port = new Proxy({} as DesktopPort, {
    get: (_, key) => {
      if (key === 'name') return 'offline'
      throw new Error(`the desktop was called (${String(key)})`)
    },
  })
  const request: BuildRequest = { prompt, sample: { id: 's', input: {} }, previous: [] }
  return { session: new BuildSession(port, script.io, request), script }
}
