// Mousepad (development set, bench/native-split.md): a GTK 3 text editor whose find and replace
// works through a dialog (Search › Find and Replace…). The file it opens on its command line is
// the data file, read back as plain text. Mousepad keeps its own settings (the dialog's ticks,
// its search history, the window's size) in GSettings, which here is dconf: the session bus
// starts dconf-service with the desktop's environment, so they land in the desktop user's
// ~/.config/dconf/user, not in the app's home.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { inputOf } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'

/** A team's meeting notes: a few words come back on several lines, as notes do. */
const NOTES = [
  'Meeting notes, 14 March',
  '',
  'The blue team meets on Monday at 10:00 in room 4.',
  'Ask the blue team for the quarterly report before Monday.',
  'Priya will send the report to the finance team.',
  'Next meeting: Monday 21 March.',
  'Action: draft the report summary.',
  '',
].join('\n')

/** The open file's text, as Mousepad last saved it. */
export const text = (a: NativeRunningApp) => readFileSync(a.dataFiles[0]!, 'utf8')

/** What the file should read after every occurrence of `find` became `replace` (Mousepad matches text, not words). */
export const replaced = (before: string, find: string, replace: string) => before.split(find).join(replace)

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value
const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())

/** The dialog's two boxes, by the captions on their left (the entries inside the combo boxes have no name). */
const FIELDS: Record<string, RegExp> = { find: /^search for:?$/i, replace: /^replace with:?$/i }
const box = (input: string): Pick => beside(FIELDS[input]!)

/**
 * The owner's way: Search › Find and Replace… the word in "Search for:", the new word in
 * "Replace with:", tick "Replace all in:" (Document) so the button becomes "Replace All", click it,
 * Close, and File › Save. On the test desktop Mousepad 0.5.10's Replace All was seen to replace one
 * occurrence per click (its count beside the box goes down by one), so a call may need it clicked
 * until the count reads 0 occurrences. The ticks of this dialog are kept in GSettings across runs.
 */
const SHOW: ShowHow = {
  show: [
    { click: named('menuitem', /^search$/i) },
    { click: named('menuitem', /^find and replace/i) },
    { type: 'blue', into: box('find') },
    { type: 'green', into: box('replace') },
    { click: named('checkbox', /^replace all in:?$/i) },
    { click: named('button', /^replace all$/i) },
    { click: named('button', /^close$/i) },
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
  if (q.kind === 'choose_submit') return option(q, /^replace( all)?$/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && /^point at the button/i.test(q.text))
    return { pointAt: named('button', /^replace all$/i), elseNotHere: true }
  return undefined
}

const replaceWord: GauntletJob<NativeRunningApp> = {
  app: 'mousepad',
  name: 'replace every occurrence of a word in the open file and save',
  method: 'POST',
  path: '/replacements',
  prompt:
    'In the file open in Mousepad, replace every occurrence of the word `find` with the word `replace`, then save the file',
  demonstrate: true,
  samples: () => [{ input: { find: 'blue', replace: 'green' } }],
  answer,
  live: (mousepad) => {
    // Each call starts from the file as the previous one left it (teaching has changed it already).
    let before = text(mousepad)
    return [
      { find: 'Monday', replace: 'Tuesday' },
      { find: 'report', replace: 'review' },
    ].map((want) => ({
      input: want,
      check: () => {
        const now = text(mousepad)
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
  name: 'mousepad',
  kind: 'text editor, dialog-based find and replace (GTK 3)',
  async start(home) {
    const file = join(home.path, 'notes.txt')
    writeFileSync(file, NOTES)
    const running: NativeRunningApp = {
      name: 'mousepad',
      url: `file://${file}`,
      spec: { executable: 'mousepad', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [replaceWord],
}
