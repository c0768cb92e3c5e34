// TeXworks (development set, bench/native-split.md): a Qt 5 editor for TeX documents whose find
// and replace works through a dialog (Search › Replace…), beside Mousepad (GTK) for the same job.
// The file it opens on its command line is a plain .txt file, the data file, read back as plain
// text. TeXworks shows no first-run dialog, tips or template window: its first start writes its
// settings (~/.config/TUG/TeXworks.conf) and copies its resources (~/.local/share/TUG/TeXworks/)
// by itself, so nothing is seeded. The Replace dialog keeps its texts and ticks in that settings
// file (searchText, replaceText, recent…Strings, searchFlags, searchWrap…), written on every
// Replace or Replace All; the file appears on the app's first start, so the bench counts it as the
// app's own churn.
import { beside, type Pick, type ShowHow } from '../../gauntlet/types.ts'
import { named, replacingEditor } from '../replace-word.ts'

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

// "Replace" replaces only the next occurrence: the job's button is "Replace All".
export const app = replacingEditor({
  name: 'texworks',
  title: 'TeXworks',
  kind: 'text editor, dialog-based find and replace (Qt 5)',
  executable: 'texworks',
  file: 'memo.txt',
  text: MEMO,
  dialog: { show: SHOW, fields: FIELDS, box, submit: /^replace all$/i, button: /^replace all$/i },
})
