// TeXworks (development set, bench/native-split.md): a Qt 5 editor for TeX documents whose find
// and replace works through a dialog (Search › Replace…), beside Mousepad (GTK) for the same job.
// The file it opens on its command line is a plain .txt file, the data file, read back as plain
// text. TeXworks shows no first-run dialog, tips or template window: its first start writes its
// settings (~/.config/TUG/TeXworks.conf) and copies its resources (~/.local/share/TUG/TeXworks/)
// by itself, so nothing is seeded. The Replace dialog keeps its texts and ticks in that settings
// file (searchText, replaceText, recent…Strings, searchFlags, searchWrap…), written on every
// Replace or Replace All; the file appears on the app's first start, so the bench counts it as the
// app's own churn.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { inputOf, option } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'

/**
 * An office's weekly memo: a few words come back on several lines. None of the sample's or the
 * live calls' words appears in another case (TeXworks matches without case by default).
 */
const MEMO = [
  'Office memo, week 12',
  '',
  'The blue printer on the second floor is out of toner until Monday.',
  'Please print the monthly report on the blue printer in room 7 instead.',
  'Jonas collects the signed report on Monday morning.',
  'Reminder: the blue folders go back to the archive by Monday.',
  'The draft report for the board is due on Friday.',
  '',
].join('\n')

/** The open file's text, as TeXworks last saved it. */
export const text = (a: NativeRunningApp) => readFileSync(a.dataFiles[0]!, 'utf8')

/** What the file should read after every occurrence of `find` became `replace` (TeXworks matches text, not words). */
export const replaced = (before: string, find: string, replace: string) => before.split(find).join(replace)

const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())

/**
 * The dialog's two boxes, by the captions on their left (the boxes themselves have no name). The
 * box for the word to find is captioned "Replace:" and the new word's "With:", so the caller's
 * `replace` is not the box captioned "Replace:".
 */
const FIELDS: Record<string, RegExp> = { find: /^replace:?$/i, replace: /^with:?$/i }
/** As captions on screen, with their colons: not the "Replace" buttons nor the dialog's title. */
const CAPTIONS: Record<string, RegExp> = { find: /^replace:$/i, replace: /^with:$/i }
const box = (input: string): Pick => beside(CAPTIONS[input]!)

/**
 * The owner's way: Search › Replace…, the word in "Replace:", the new word in "With:", Replace All
 * (it replaces every occurrence in the whole document at once, whatever "Wrap around" says, and
 * closes the dialog), and File › Save. The dialog opens with the last call's texts in its boxes.
 */
const SHOW: ShowHow = {
  show: [
    { click: named('menuitem', /^search$/i) },
    { click: named('menuitem', /^replace(\.\.\.|…)$/i) },
    { type: 'blue', into: box('find') },
    { type: 'green', into: box('replace') },
    { click: named('button', /^replace all$/i) },
    { click: named('menuitem', /^file$/i) },
    { click: named('menuitem', /^save$/i) },
  ],
}

function answer(q: Question): string | string[] | PointAt | ShowHow | undefined {
  if (q.kind === 'demonstrate') return SHOW
  const input = inputOf(q)
  const field = input ? FIELDS[input] : undefined
  if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
  // Asked whether a text typed in the demonstration is one of the caller's inputs: it is.
  const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
  if (q.kind === 'map_field' && fromSample && fromSample in FIELDS)
    return option(q, /^the sample’s/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && input && field && /^point at the field/i.test(q.text))
    return { pointAt: box(input), elseNotHere: true }
  // "Replace" replaces only the next occurrence: the job's button is "Replace All".
  if (q.kind === 'choose_submit') return option(q, /^replace all$/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && /^point at the button/i.test(q.text))
    return { pointAt: named('button', /^replace all$/i), elseNotHere: true }
  return undefined
}

const replaceWord: GauntletJob<NativeRunningApp> = {
  app: 'texworks',
  name: 'replace every occurrence of a word in the open file and save',
  method: 'POST',
  path: '/replacements',
  prompt:
    'In the file open in TeXworks, replace every occurrence of the word `find` with the word `replace`, then save the file',
  demonstrate: true,
  samples: () => [{ input: { find: 'blue', replace: 'green' } }],
  answer,
  live: (texworks) => {
    // Each call starts from the file as the previous one left it (teaching has changed it already).
    let before = text(texworks)
    return [
      { find: 'Monday', replace: 'Tuesday' },
      { find: 'report', replace: 'review' },
    ].map((want) => ({
      input: want,
      check: () => {
        const now = text(texworks)
        const expected = replaced(before, want.find, want.replace)
        const was = before
        before = now
        if (!was.includes(want.find)) return `the file had no “${want.find}” before the call`
        if (now === expected) return undefined
        if (now === was) return 'the file is unchanged (not replaced, or not saved)'
        const left = now.split(want.find).length - 1
        if (left) return `${left} occurrence(s) of “${want.find}” are left in the file`
        return `the file reads ${JSON.stringify(now)}, expected ${JSON.stringify(expected)}`
      },
    }))
  },
}

export const app: NativeThirdPartyApp = {
  name: 'texworks',
  kind: 'text editor, dialog-based find and replace (Qt 5)',
  async start(home) {
    const file = join(home.path, 'memo.txt')
    writeFileSync(file, MEMO)
    const running: NativeRunningApp = {
      name: 'texworks',
      url: `file://${file}`,
      spec: { executable: 'texworks', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [replaceWord],
}
