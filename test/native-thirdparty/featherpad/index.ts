// FeatherPad (held-out set, bench/native-split.md): a Qt 5 text editor whose find and replace
// works through a docked "Replacement" panel (the toolbar's Replace, Search › Replace, Ctrl+R):
// a Find box, a Replace with box and icon buttons without names (next, previous, replace all).
// The file it opens is the data file, read as plain text. FeatherPad shows no first-run screen,
// so its settings are not seeded: a person's FeatherPad starts with its defaults.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import {
  beside,
  type GauntletJob,
  type Pick,
  type PointAt,
  type ScreenElement,
  type ShowHow,
} from '../../gauntlet/types.ts'
import { inputOf } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'

/** A person's notes: each word the jobs replace appears only in lower case (or only capitalised) and whole. */
export const NOTES = [
  'Meeting notes',
  'The blue team meets on Monday at the library.',
  'Ask the blue team for the report before Monday.',
  'Print the report and bring two copies of the report.',
  'Next meeting: the first Monday of March.',
  '',
].join('\n')

/** The text of the open file as it is on disk. */
export const text = (a: NativeRunningApp) => readFileSync(a.dataFiles[0]!, 'utf8')

const FIND = beside(/^find:$/i)
const REPLACE_WITH = beside(/^replace with:$/i)
/** The panel's "Replace all": the right-most icon button on the "Replace with:" row. */
const REPLACE_ALL: Pick = (e, all) => {
  const caption = all.find((c) => c.role === 'text' && /^replace with:$/i.test(c.name.trim()))
  if (!caption || e.role !== 'button') return false
  const level = (b: ScreenElement['bounds']) =>
    b.y < caption.bounds.y + caption.bounds.height && b.y + b.height > caption.bounds.y
  const row = all.filter((b) => b.role === 'button' && level(b.bounds) && b.bounds.x > caption.bounds.x)
  return row.sort((a, b) => b.bounds.x - a.bounds.x)[0] === e
}

/** The toolbar's Replace, while the panel is hidden (a click on it then would hide the panel). */
const OPENS_PANEL: Pick = (e, all) =>
  e.role === 'button' &&
  e.name.trim() === 'Replace' &&
  !all.some((c) => c.role === 'text' && /^replace with:$/i.test(c.name.trim()))

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value

/**
 * The owner's answers: the panel's two boxes by their captions, its unnamed Replace all button by
 * where it is, and the whole task shown (open the panel, fill both boxes, Replace all, Ctrl+S).
 */
function answer(q: Question): string | PointAt | ShowHow | undefined {
  if (q.kind === 'demonstrate')
    return {
      // The toolbar's Replace shows the panel and hides it again: the owner clicks it only when
      // the panel is not on the screen yet (its "Replace with:" caption is missing).
      signIn: { when: OPENS_PANEL, steps: [{ click: OPENS_PANEL }] },
      show: [
        { type: 'blue', into: FIND },
        { type: 'green', into: REPLACE_WITH },
        { click: REPLACE_ALL },
        { key: 'Control+S' },
      ],
    }
  const input = inputOf(q)
  const fields: Record<string, RegExp> = { find: /^find:?$/i, replace: /^replace with:?$/i }
  const field = input ? fields[input] : undefined
  if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
  const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
  if (q.kind === 'map_field' && fromSample && fromSample in fields)
    return option(q, /^the sample’s/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && input === 'find') return { pointAt: FIND }
  if (q.kind === 'point' && input === 'replace') return { pointAt: REPLACE_WITH }
  if (q.kind === 'choose_submit') return option(q, /replace all/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && /^point at the button/i.test(q.text)) return { pointAt: REPLACE_ALL }
  return undefined
}

const count = (s: string, word: string) => s.split(word).length - 1

/** Replace every occurrence of a word with another in the open file, and save it. */
export const replaceWord: GauntletJob<NativeRunningApp> = {
  app: 'featherpad',
  name: 'replace every occurrence of a word in the open file and save',
  method: 'POST',
  path: '/notes/replace',
  prompt:
    'In FeatherPad, replace every occurrence of the word `find` with the word `replace` in the open file, ' +
    'then save the file',
  samples: () => [
    { input: { find: 'blue', replace: 'green' } },
    { input: { find: 'library', replace: 'museum' } },
  ],
  answer,
  // Each call replaces a word of its own; the second call's file is the first call's result (or the
  // file before it, when the first call did nothing: its own check has said so already).
  live: (a) => {
    const before = text(a)
    const calls = [
      { find: 'report', replace: 'minutes' },
      { find: 'Monday', replace: 'Thursday' },
    ]
    return calls.map((call, i) => ({
      input: call,
      check: () => {
        const bases = i === 0 ? [before] : [before.replaceAll(calls[0]!.find, calls[0]!.replace), before]
        if (!count(before, call.find)) return `harness: “${call.find}” is not in the file`
        const now = text(a)
        if (bases.some((b) => now === b.replaceAll(call.find, call.replace))) return undefined
        if (now.includes(call.find))
          return `“${call.find}” is still in the file ${count(now, call.find)} times`
        return `the file is not the old text with every “${call.find}” replaced: ${JSON.stringify(now).slice(0, 300)}`
      },
    }))
  },
}

export const app: NativeThirdPartyApp = {
  name: 'featherpad',
  kind: 'text editor, dialog-based find and replace (Qt 5)',
  async start(home) {
    const file = join(home.path, 'notes.txt')
    writeFileSync(file, NOTES)
    const running: NativeRunningApp = {
      name: 'featherpad',
      url: `file://${file}`,
      spec: { executable: 'featherpad', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [replaceWord],
}
