// The text editors' job (bench/native-split.md): replace every occurrence of a word in the open
// file and save, taught with a demonstration in the editor's own find-and-replace dialog. Each
// editor's module (test/native-thirdparty/<app>/) gives its dialog's captions, the owner's way
// through it and its button that replaces all; the file, the calls and the checks are the same.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ShowHow } from '../gauntlet/types.ts'
import { inputOf, option } from './answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from './types.ts'

/** The open file's text, as the editor last saved it. */
export const fileText = (a: NativeRunningApp) => readFileSync(a.dataFiles[0]!, 'utf8')

/** What the file should read after every occurrence of `find` became `replace` (text, not words). */
export const replaced = (before: string, find: string, replace: string) => before.split(find).join(replace)

/** A control by role and name. */
export const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())

interface ReplaceDialog {
  /** The owner's way, shown when asked to demonstrate. */
  show: ShowHow
  /** The captions of the boxes for `find` and `replace`, as the builder's options name them. */
  fields: Record<string, RegExp>
  /** The box for an input, as the owner points at it. */
  box: (input: string) => Pick
  /** The submit the owner chooses among the builder's options, and the button pointed at. */
  submit: RegExp
  button: RegExp
}

/** The owner's answers to the builder's questions about the dialog. */
function answers(dialog: ReplaceDialog) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return dialog.show
    const input = inputOf(q)
    const field = input ? dialog.fields[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    // Asked whether a text typed in the demonstration is one of the caller's inputs: it is.
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && fromSample in dialog.fields)
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && field && /^point at the field/i.test(q.text))
      return { pointAt: dialog.box(input), elseNotHere: true }
    if (q.kind === 'choose_submit') return option(q, dialog.submit) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return { pointAt: named('button', dialog.button), elseNotHere: true }
    return undefined
  }
}

/** The job, as a new user of the editor `title` would teach it. */
function replaceWordJob(app: string, title: string, dialog: ReplaceDialog): GauntletJob<NativeRunningApp> {
  return {
    app,
    name: 'replace every occurrence of a word in the open file and save',
    method: 'POST',
    path: '/replacements',
    prompt: `In the file open in ${title}, replace every occurrence of the word \`find\` with the word \`replace\`, then save the file`,
    demonstrate: true,
    samples: () => [{ input: { find: 'blue', replace: 'green' } }],
    answer: answers(dialog),
    live: (editor) => {
      // Each call starts from the file as the previous one left it (teaching has changed it already).
      let before = fileText(editor)
      return [
        { find: 'Monday', replace: 'Tuesday' },
        { find: 'report', replace: 'review' },
      ].map((want) => ({
        input: want,
        check: () => {
          const now = fileText(editor)
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
}

/** An editor opening `file` (holding `text`) in the app's home on its command line, with the job. */
export function replacingEditor(editor: {
  name: string
  title: string
  kind: string
  executable: string
  file: string
  text: string
  dialog: ReplaceDialog
}): NativeThirdPartyApp {
  return {
    name: editor.name,
    kind: editor.kind,
    async start(home) {
      const file = join(home.path, editor.file)
      writeFileSync(file, editor.text)
      return {
        name: editor.name,
        url: `file://${file}`,
        spec: { executable: editor.executable, args: [file] },
        dataFiles: [file],
        async stop() {},
      }
    },
    jobs: [replaceWordJob(editor.name, editor.title, editor.dialog)],
  }
}
