// Jobs one person would want from the Syncthing on their machine, in the caller's words ("share a
// new folder", "where is this folder on disk", "which folders do I share with this device"), each
// checked in Syncthing's own configuration through its REST API. Its GUI is open (no sign-in):
// folders and remote devices are panels whose heading unfolds a table of captions and values, and
// a folder is added in a modal dialog with tabs (General, Sharing, …) whose Folder ID comes filled in.
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ShowHow } from '../../gauntlet/types.ts'
import type { StoredFolder, Syncthing } from './app.ts'

/** The values of the options whose labels match (the first only, unless the question is a multiple choice). */
const choose = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label.trim())).map((o) => o.value)
  if (!picked.length) return undefined
  return q.multiple ? picked : picked[0]
}
/** The caller's input a map_field question is about (“Where should the value of “label” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const button =
  (name: RegExp): Pick =>
  (e) =>
    e.role === 'button' && name.test(e.name.trim())
/** A box of the dialog by its caption (the label above it names it). */
const box =
  (name: RegExp): Pick =>
  (e) =>
    /^(textbox|combobox|searchbox)$/.test(e.role) && name.test(e.name.trim())
/**
 * The heading of a folder's or a device's panel, which unfolds it: its name is the state the panel
 * shows on its right ("Up to Date", "Unshared", "Disconnected") and then the label.
 */
const panelOf =
  (label: string): Pick =>
  (e) =>
    e.role === 'button' && new RegExp(`(^|\\s)${escapeRe(label)}$`).test(e.name.trim())
/** The value of an unfolded panel's row, right of its caption and level with it ("Folder Path  /srv/…"). */
const valueBeside =
  (caption: RegExp, value?: RegExp): Pick =>
  (e, all) =>
    !/^(row|table|rowgroup|region|button)$/.test(e.role) &&
    !caption.test(e.name.trim()) &&
    (!value || value.test(e.name.trim())) &&
    all.some(
      (c) =>
        caption.test(c.name.trim()) &&
        c !== e &&
        e.bounds.x > c.bounds.x + c.bounds.width / 2 &&
        e.bounds.y < c.bounds.y + c.bounds.height &&
        e.bounds.y + e.bounds.height > c.bounds.y,
    )

/**
 * What the owner answers about Syncthing's screens: which box of a dialog takes each input (by the
 * captions they know), that an input is not typed anywhere (it picks a panel), which button sends
 * the dialog, which of the screen's values the caller asked for, and where a value shows. Else
 * they leave it unanswered.
 */
function owner(opts: {
  fields?: Record<string, RegExp>
  notTyped?: string[]
  send?: RegExp
  outputs?: RegExp
  shown?: Record<string, PointAt>
  /** What the owner points at when asked for "the list". */
  list?: PointAt
  show?: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    if (q.kind === 'map_field' && input) {
      const field = opts.fields?.[input]
      if (field) return choose(q, field) ?? NONE_OF_THESE
      if (opts.notTyped?.includes(input)) return NONE_OF_THESE
    }
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text)) {
      const field = opts.fields?.[input]
      return field ? { pointAt: box(field), elseNotHere: true } : undefined
    }
    if (q.kind === 'choose_submit')
      // A look-up sends no form: the panel unfolds on a click.
      return (opts.send && choose(q, opts.send)) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text) && opts.send)
      return { pointAt: button(opts.send), elseNotHere: true }
    if (q.kind === 'choose_outputs' && opts.outputs) {
      // The options named like the outputs, or showing a folder ID; when none is, the owner says so.
      const outputs = opts.outputs
      const picked = q.options
        .filter((o) => outputs.test(o.label) || /\b[a-z0-9]{5}-[a-z0-9]{5}\b/.test(o.label))
        .map((o) => o.value)
      return picked.length ? (q.multiple ? picked : picked[0]) : NONE_OF_THESE
    }
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    if (q.kind === 'point' && /^point at the list/i.test(q.text)) return opts.list
    // Asked where a value of the sample is shown, the owner points at that value on the screen, or
    // says it is not on this one (a folded panel shows nothing of the record but its label).
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected)
      return { pointAt: (e) => e.name.trim() === expected || e.value === expected, elseNotHere: true }
    return undefined
  }
}

const FOLDER_ID = /^[a-z0-9]{5}-[a-z0-9]{5}$/

/** The sample folder's path, under this run's data dir (set when the samples are made; the owner types it). */
const taxPapers = { label: 'Tax Papers', path: '' }

/** Share a new folder (its label and where it is on disk) and return the Folder ID Syncthing gives it. */
export const addFolder: GauntletJob<Syncthing> = {
  app: 'syncthing',
  name: 'add a folder, return its folder id',
  method: 'POST',
  path: '/folders',
  prompt:
    'Add a new folder to Syncthing with this label and this path on disk, and return the folder ID it gets',
  samples: (st) => {
    taxPapers.path = join(st.dataDir, 'tax-papers')
    return [{ input: { ...taxPapers }, expect: { folderId: { $type: 'string' } } }]
  },
  // The owner knows "Add Folder" under the folder list: a dialog whose General tab has Folder
  // Label, Folder ID (filled in already, with the same id in the dialog's title) and Folder Path
  // (filled in from the label, which they clear and retype), then Save. Once saved, the folder's
  // panel shows its Folder ID when unfolded, which they do to show the answer.
  answer: owner({
    fields: { label: /^folder label/i, path: /^folder path/i },
    send: /^save$/i,
    outputs: /folder id|^id\b/i,
    shown: {
      folderId: {
        pointAt: (e, all) =>
          (box(/^folder id/i)(e, all) && FOLDER_ID.test(e.value ?? '')) ||
          valueBeside(/^folder id$/i, FOLDER_ID)(e, all),
        elseNotHere: true,
      },
    },
    // A getter: the sample's path is known once the samples are made.
    get show(): ShowHow {
      return {
        show: [
          { click: button(/^add folder$/i) },
          // The dialog fades in: the owner clicks into its first box once it shows, then types.
          { click: box(/^folder label/i) },
          { type: taxPapers.label, into: box(/^folder label/i) },
          { click: box(/^folder path/i) },
          { key: 'Ctrl+A' },
          { key: 'Backspace' },
          { type: taxPapers.path, into: box(/^folder path/i) },
          { click: button(/^save$/i) },
          // The new folder's panel, unfolded, shows its Folder ID.
          { click: panelOf(taxPapers.label) },
        ],
      }
    },
  }),
  live: (st) =>
    [
      { label: 'Recipes', path: join(st.dataDir, 'kitchen', 'recipes') },
      { label: 'Band Rehearsals 2026', path: join(st.dataDir, 'audio-rehearsals') },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const found = st.folders().filter((f) => f.label === want.label)
        if (found.length !== 1) return `${found.length} folders labelled “${want.label}”, expected exactly 1`
        const folder = found[0]!
        if (folder.path.replace(/\/+$/, '') !== want.path)
          return `the folder's path is “${folder.path}”, expected “${want.path}”`
        const id = String(r.folderId ?? '').trim()
        return id === folder.id
          ? undefined
          : `folderId ${JSON.stringify(r.folderId)} is not the new folder's ID ${folder.id}`
      },
    })),
}

/** Look a folder up by its label and return where it is on disk. */
export const folderPath: GauntletJob<Syncthing> = {
  app: 'syncthing',
  name: 'look up the path of a folder by its label',
  method: 'GET',
  path: '/folders/path',
  prompt: 'Tell me where on disk the Syncthing folder with this label is (its folder path)',
  samples: (st) => {
    st.addFolders([
      { label: 'Camera Uploads', path: join(st.dataDir, 'phone', 'DCIM') },
      { label: 'Camera Uploads Old', path: join(st.dataDir, 'phone-2019', 'DCIM') },
      { label: 'Notes', path: join(st.dataDir, 'notes') },
    ])
    return [{ input: { label: 'Camera Uploads' }, expect: { path: join(st.dataDir, 'phone', 'DCIM') } }]
  },
  // The folder list shows each folder by its label; a click on one unfolds it, and its Folder
  // Path row holds the path.
  answer: owner({
    notTyped: ['label'],
    outputs: /folder path|^path/i,
    shown: { path: { pointAt: valueBeside(/^folder path$/i, /^\//), elseNotHere: true } },
    show: { show: [{ click: panelOf('Camera Uploads') }] },
  }),
  live: (st) => {
    const wanted = [
      { label: 'Notes', path: join(st.dataDir, 'notes') },
      { label: 'Thesis Drafts', path: join(st.dataDir, 'university', 'thesis', 'drafts') },
    ]
    // A look-alike: a label that starts the same way.
    st.addFolders([...wanted, { label: 'Thesis', path: join(st.dataDir, 'university', 'thesis') }])
    return wanted.map((want) => ({
      input: { label: want.label },
      check: (r) => {
        const stored = st.folders().filter((f) => f.label === want.label)
        if (stored.length !== 1 || stored[0]!.path !== want.path)
          return `harness: folder ${want.label} is stored as ${JSON.stringify(stored)}`
        const path = String(r.path ?? '')
          .trim()
          .replace(/\/+$/, '')
        return path === want.path
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected the path “${want.path}”`
      },
    }))
  },
}

/** The labels of the folders shared with one remote device, found by its name. */
export const foldersSharedWith: GauntletJob<Syncthing> = {
  app: 'syncthing',
  name: 'list the folders shared with a device',
  method: 'GET',
  path: '/devices/folders',
  prompt: 'List the labels of the folders that this Syncthing shares with the remote device of this name',
  samples: (st) => {
    st.addDevices(['Office NAS', 'Anna Laptop', 'Old Phone'])
    st.addFolders([
      { label: 'Invoices', sharedWith: ['Office NAS', 'Anna Laptop'] },
      { label: 'Scans', sharedWith: ['Office NAS'] },
      { label: 'Holiday Photos', sharedWith: ['Anna Laptop'] },
      { label: 'Contracts', sharedWith: ['Office NAS'] },
      { label: 'Ringtones', sharedWith: ['Old Phone'] },
    ])
    return [{ input: { device: 'Office NAS' }, expect: { folders: { $type: 'array' } } }]
  },
  // The remote devices are panels under "Remote Devices", by name; a click on one unfolds it, and
  // its Folders row lists the labels of the folders shared with it (comma-separated).
  answer: owner({
    notTyped: ['device'],
    outputs: /^folders?$|label/i,
    list: { pointAt: valueBeside(/^folders$/i, /(Invoices|Scans|Contracts)/), elseNotHere: true },
    show: { show: [{ click: panelOf('Office NAS') }] },
  }),
  live: (st) => {
    st.addDevices(['Studio iMac', 'Backup Server'])
    st.addFolders([
      { label: 'Podcast Raw', sharedWith: ['Studio iMac'] },
      { label: 'Podcast Edits', sharedWith: ['Studio iMac', 'Backup Server'] },
      { label: 'Mail Archive', sharedWith: ['Backup Server'] },
      { label: 'Tax Years', sharedWith: ['Backup Server'] },
    ])
    return ['Studio iMac', 'Backup Server'].map((device) => ({
      input: { device },
      check: (r) => labelsListed(st, r, device),
    }))
  },
}

export const syncthingJobs = [addFolder, folderPath, foldersSharedWith]

/** The returned list holds exactly the labels of the folders shared with the named device, each once. */
function labelsListed(st: Syncthing, result: Record<string, unknown>, device: string): string | undefined {
  const id = st.devices().find((d) => d.name === device)?.id
  if (!id) return `harness: no device named ${device}`
  const all: StoredFolder[] = st.folders()
  const want = all.filter((f) => f.devices.includes(id)).map((f) => f.label)
  const others = all.filter((f) => !want.includes(f.label)).map((f) => f.label)
  if (want.length < 2) return `harness: only ${want.length} folders are shared with ${device}`
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  // An item is a label, or a record one of whose values is the label.
  const items = list.map((item) =>
    (typeof item === 'object' && item ? Object.values(item) : [item]).map((v) => String(v).trim()),
  )
  const text = JSON.stringify(list).slice(0, 300)
  const missing = want.filter((label) => !items.some((values) => values.includes(label)))
  const extra = others.filter((label) => items.some((values) => values.includes(label)))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${text}`
  if (list.length !== want.length) return `list has ${list.length} entries, expected ${want.length}: ${text}`
  return undefined
}
