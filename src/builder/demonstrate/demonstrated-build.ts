// A first build from a demonstration (DESIGN §4.8): when exploring finds no screen for the sample,
// or the teach call asks to be shown, the builder opens the app where a run starts and asks the
// person to do the task once (`demonstrate`). The recording becomes the steps (demonstration.ts);
// the screens it holds before and after the submit are judged, read and verified exactly as an
// explored build's are (finish-build.ts). The person's own submit was the sample's one submit.
import type { Step } from '../../protocol/automation.ts'
import type { WindowInfo } from '../../protocol/elements.ts'
import type { Recording } from '../../protocol/recording.ts'
import { finishBuild } from '../compose/finish-build.ts'
import type { BuildResult } from '../contract.ts'
import { inputTexts } from '../generalise.ts'
import { type InputLeaf, shownValue, textValues } from '../input-leaves.ts'
import { appSpecOf } from '../locate/locate-window.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { classifySent } from '../observe/classify.ts'
import { requireEnding } from '../observe/judge-ending.ts'
import { resultsEnding } from '../observe/results-ending.ts'
import { BuildFailure, type BuildSession, canBeShown } from '../session.ts'
import { signIn } from '../sign-in/sign-in.ts'
import { followUps } from '../submit/follow-ups.ts'
import { addressTemplate, sameAddress } from './demonstrated-values.ts'
import { demonstrationSteps, expectedTexts } from './demonstration.ts'
import { buildFromShownWay, showsOnlyTheWay } from './shown-way.ts'

export interface ShowMe {
  window: WindowInfo
  reading: PromptReading
  leaves: InputLeaf[]
  /** Why the builder asks (exploring found nothing), or undefined when the teach call asked. */
  stuck?: string
}

/**
 * "Show me": the teach call asked to be shown rather than have the builder explore. When this
 * build cannot receive a recording, it says so and explores instead.
 */
export function askedToBeShown(session: BuildSession): boolean {
  if (!session.request.demonstrate) return false
  if (canBeShown(session)) return true
  session.progress(
    'explore',
    'The teach call asks to be shown, but this build cannot receive a recording; exploring instead',
  )
  return false
}

/** Exploring is lost for good: ask to be shown when the build can receive a recording, else fail as found. */
export function showWhenLost(session: BuildSession, show: ShowMe, lost: Error): Promise<BuildResult> {
  if (!canBeShown(session)) throw lost
  return demonstratedBuild(session, { ...show, stuck: lost.message })
}

export async function demonstratedBuild(session: BuildSession, show: ShowMe): Promise<BuildResult> {
  const { sample, prompt } = session.request
  const app = appSpecOf(show.window)
  // The person starts where every run starts: the app freshly opened, signed in if it asks.
  await session.launch(app)
  const first = await session.settle()
  const signedIn = await signIn(session, first)
  const prelude = signedIn?.steps ?? []
  const home = signedIn?.screen ?? first
  session.progress(
    'explore',
    show.stuck
      ? 'No screen the builder could reach takes the sample’s values; asking to be shown how it is done'
      : 'The teach call asks to be shown how it is done; asking for a demonstration',
    show.stuck ? { reason: show.stuck } : undefined,
  )
  const answer = await session.ask({
    kind: 'demonstrate',
    text: askText(session, prompt, show),
    options: [],
    multiple: false,
    windowId: session.windowId,
  })
  const id = Array.isArray(answer) ? (answer[0] ?? '') : answer
  const recording = await session.desktop('Reading the recording', () => readRecording(session, id))

  // A recording started somewhere else than the app's start screen starts with getting there.
  const startUrl = recording.snapshots[0]?.window.url
  const opening: Step[] = []
  if (startUrl && home.window.url && !sameAddress(startUrl, home.window.url)) {
    const { template } = addressTemplate(startUrl, textValues(show.leaves), home.window.url)
    opening.push({ kind: 'navigate', name: `Open ${template}`, url: template })
    session.progress('explore', `The demonstration started at ${startUrl}: the job opens it first`)
  }
  // Shown just the way to the form: the rest is the builder's, as after exploring.
  if (showsOnlyTheWay(recording, show.leaves, expectedTexts(sample.expect)))
    return buildFromShownWay(session, recording, {
      window: show.window,
      app,
      reading: show.reading,
      leaves: show.leaves,
      before: [...prelude, ...opening],
    })
  const demo = await demonstrationSteps(session, recording)

  const inputs = inputTexts(sample.input)
  // What the sample expects back is the record's own (a heading "Principal: John Smith" on the
  // record a lookup opened): it differs on every call, as the caller's values do.
  const varying = [...inputs, ...expectedTexts(sample.expect).filter((v) => v.trim().length >= 3)]
  let ending = classifySent(demo, demo.fields, varying, show.leaves)
  if (!ending && demo.submit.kind === 'keys' && demo.fields.length > 0) {
    ending = resultsEnding(demo.after.root, textValues(show.leaves), varying)
    if (ending)
      session.progress(
        'observe',
        `The search box filters as it is typed into: the results show “${ending.message}”`,
      )
  }
  if (!ending)
    throw new BuildFailure(
      'NO_OUTCOME',
      `Nothing visible changed after “${demo.submitLabel}” in the demonstration. ` +
        'Record again, and press Done only once the app shows its answer (a message, the new record).',
    )
  // What the person's submit led to is followed up as an explored send's is (follow-ups.ts): a
  // confirmation, a preview's own send, or the record to open when what to return is not shown.
  // The window is where the demonstration left it.
  const followed = await followUps(
    session,
    {
      fields: [],
      fillSteps: [],
      submitStep: demo.submit,
      submitLabel: demo.submitLabel,
      observed: { before: demo.before, after: demo.after, elapsedMs: 0 },
    },
    ending,
    { reading: show.reading, inputs, leaves: show.leaves },
  )
  const { fillSteps, submitStep, submitLabel, observed } = followed.sent
  return finishBuild(session, {
    window: show.window,
    app,
    prefix: [...prelude, ...opening, ...demo.path, ...fillSteps],
    submit: submitStep,
    firstSend: demo.firstSend,
    sendsInRow: demo.fields.length === 0 && demo.firstSend !== demo.submit,
    observed: fillSteps.length ? observed : { before: demo.before, after: demo.after },
    ending: fillSteps.length ? requireEnding(followed.ending, followed.sent) : ending,
    reading: show.reading,
    inputs,
    leaves: show.leaves,
    submitLabel,
  })
}

async function readRecording(session: BuildSession, id: string): Promise<Recording> {
  const recording = await session.io.recording?.(id)
  if (!recording) throw new Error(`no recording “${id}”`)
  return recording
}

/** “Show me how to create a customer with this sample: firstName “Ada”, … Start recording, …” */
function askText(session: BuildSession, prompt: string, show: ShowMe): string {
  const task = prompt.trim().replace(/[.!]+$/, '')
  const lead = task.charAt(0).toLowerCase() + task.slice(1)
  const values = show.leaves
    .filter((l) => l.source !== 'header')
    .map((l) => `${l.path} ${typeof l.value === 'string' ? `“${shownValue(l.value)}”` : shownValue(l.value)}`)
    .join(', ')
  return (
    (show.stuck ? 'I could not find where this is done in the app. ' : '') +
    `Show me how to ${lead} with this sample: ${values || 'no values'}. ` +
    `Start recording, do it once on ${session.port.name}, then press Done. ` +
    'Or show me just the way: open the form, press Done, and I fill it in and send it myself.'
  )
}
