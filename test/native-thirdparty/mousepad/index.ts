// Mousepad (development set, bench/native-split.md): a GTK 3 text editor whose find and replace
// works through a dialog (Search › Find and Replace…). The file it opens on its command line is
// the data file, read back as plain text. Mousepad keeps its own settings (the dialog's ticks,
// its search history, the window's size) in GSettings, which here is dconf: the session bus
// starts dconf-service with the desktop's environment, so they land in the desktop user's
// ~/.config/dconf/user, not in the app's home.
import { beside, type Pick, type ShowHow } from '../../gauntlet/types.ts'
import { named, replacingEditor } from '../replace-word.ts'

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

export const app = replacingEditor({
  name: 'mousepad',
  title: 'Mousepad',
  kind: 'text editor, dialog-based find and replace (GTK 3)',
  executable: 'mousepad',
  file: 'notes.txt',
  text: NOTES,
  dialog: { show: SHOW, fields: FIELDS, box, submit: /^replace( all)?$/i, button: /^replace all$/i },
})
