// Gnumeric (development set, bench/native-split.md): a GTK 3 spreadsheet. It opens the workbook
// given on its command line, a shop's stock list made with Gnumeric's own `ssconvert` from a CSV.
// The workbook is gzip XML (.gnumeric): its cells are read straight from the XML
// (<gnm:Cell Row Col ValueType>value</gnm:Cell>, rows and columns counted from 0).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ScreenElement, ShowHow } from '../../gauntlet/types.ts'
import { inputOf } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'

/** A small shop's stock list: item, quantity in stock, unit price, supplier. */
const STOCK = [
  'Item,Qty,Price,Supplier',
  'Apples,12,0.5,Orchard Farm',
  'Pears,8,0.75,Orchard Farm',
  'Plums,20,0.3,Valley Fruit',
  'Cherries,5,2.4,Valley Fruit',
  'Lemons,30,0.45,Citrus Direct',
  '',
].join('\n')

const SHEET = 'Stock'

/** A1-style reference of a 0-based row and column (columns past Z as AA, AB…). */
export const ref = (row: number, col: number) => {
  let name = ''
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26))
    name = String.fromCharCode(65 + ((c - 1) % 26)) + name
  return `${name}${row + 1}`
}

const fromXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&')

/** Every non-empty cell of the workbook's sheets, by sheet name and A1 reference, as Gnumeric stored it. */
export function workbook(file: string): Map<string, Map<string, string>> {
  const xml = gunzipSync(readFileSync(file)).toString('utf8')
  const sheets = new Map<string, Map<string, string>>()
  for (const [, body] of xml.matchAll(/<gnm:Sheet\b[^>]*>([\s\S]*?)<\/gnm:Sheet>/g)) {
    const name = fromXml(/<gnm:Name>([^<]*)<\/gnm:Name>/.exec(body!)?.[1] ?? '')
    const cells = new Map<string, string>()
    for (const [, attrs, value] of body!.matchAll(/<gnm:Cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/gnm:Cell>)/g)) {
      const row = Number(/\bRow="(\d+)"/.exec(attrs!)?.[1])
      const col = Number(/\bCol="(\d+)"/.exec(attrs!)?.[1])
      if (value !== undefined && value !== '') cells.set(ref(row, col), fromXml(value))
    }
    sheets.set(name, cells)
  }
  return sheets
}

/** The cells of the stock sheet (the workbook's only sheet). */
export const cells = (file: string) => workbook(file).get(SHEET) ?? new Map<string, string>()

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value

const level = (a: ScreenElement, b: ScreenElement) =>
  a.bounds.y < b.bounds.y + b.bounds.height && a.bounds.y + a.bounds.height > b.bounds.y

/**
 * The formula bar's two boxes, which have no labels: the Name box at its left end shows the
 * current cell's reference (A1 when the workbook opens), the much wider entry right of it shows
 * and edits the current cell's content.
 */
function formulaBar(all: ScreenElement[]) {
  const boxes = all.filter((x) => x.role === 'textbox')
  for (const name of boxes.sort((a, b) => a.bounds.x - b.bounds.x)) {
    const entry = boxes.find(
      (f) =>
        f !== name && level(f, name) && f.bounds.x > name.bounds.x && f.bounds.width > 3 * name.bounds.width,
    )
    if (entry) return { name, entry }
  }
  return undefined
}
const NAME_BOX: Pick = (e, all) => formulaBar(all)?.name === e
const FORMULA_ENTRY: Pick = (e, all) => formulaBar(all)?.entry === e

/**
 * The owner's way (the grid itself is not readable through accessibility): clear the Name box,
 * type the cell's reference into it and Enter (the cursor jumps there), Delete to clear what the cell
 * held, type the value into the formula bar and Enter, then Save on the toolbar.
 */
const SHOW: ShowHow = {
  show: [
    // A click puts the caret into the reference shown there (A1…): it is cleared first, else
    // Gnumeric would take “A1B3” as the name of a new named range.
    { click: NAME_BOX },
    { key: 'End' },
    ...Array.from({ length: 6 }, () => ({ key: 'Backspace' })),
    { type: 'B3', into: NAME_BOX },
    { key: 'Enter' },
    { key: 'Delete' },
    { type: '42', into: FORMULA_ENTRY },
    { key: 'Enter' },
    { click: (e) => e.role === 'button' && /^save$/i.test(e.name.trim()) },
  ],
}

function answer(q: Question): string | string[] | PointAt | ShowHow | undefined {
  if (q.kind === 'demonstrate') return SHOW
  const input = inputOf(q)
  // The cell's reference goes in the Name box; the value is typed into the cell itself.
  if (q.kind === 'map_field' && input === 'cell') return option(q, /name|cell|reference/i) ?? NONE_OF_THESE
  if (q.kind === 'map_field' && input === 'value')
    return option(q, /formula|content|value|entry/i) ?? NONE_OF_THESE
  const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
  if (q.kind === 'map_field' && (fromSample === 'cell' || fromSample === 'value'))
    return option(q, /^the sample’s/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && input === 'cell' && /^point at the field/i.test(q.text))
    return { pointAt: NAME_BOX, elseNotHere: true }
  if (q.kind === 'point' && input === 'value' && /^point at the field/i.test(q.text))
    return { pointAt: FORMULA_ENTRY, elseNotHere: true }
  if (q.kind === 'choose_submit') return option(q, /^save$/i) ?? NONE_OF_THESE
  if (q.kind === 'point' && /^point at the button/i.test(q.text))
    return { pointAt: (e) => e.role === 'button' && /^save$/i.test(e.name.trim()), elseNotHere: true }
  return undefined
}

const writeCell: GauntletJob<NativeRunningApp> = {
  app: 'gnumeric',
  name: 'write a value into a given cell and save',
  method: 'PUT',
  path: '/cells',
  prompt:
    'In the workbook open in Gnumeric, write `value` into the cell `cell` (like B3) and save the workbook',
  demonstrate: true,
  samples: () => [{ input: { cell: 'B3', value: '42' } }],
  answer,
  live: (gnumeric) => {
    // Each call starts from the workbook as the previous one left it (teaching wrote B3 already).
    let before = cells(gnumeric.dataFiles[0]!)
    return [
      { cell: 'B6', value: '17' },
      { cell: 'E2', value: 'Reorder' },
    ].map((want) => ({
      input: want,
      check: () => {
        const now = cells(gnumeric.dataFiles[0]!)
        const was = before
        before = now
        const got = now.get(want.cell)
        if (got !== want.value)
          return `${want.cell} holds ${JSON.stringify(got)}, expected ${JSON.stringify(want.value)}`
        const changed = [...new Set([...was.keys(), ...now.keys()])].filter(
          (k) => k !== want.cell && was.get(k) !== now.get(k),
        )
        if (changed.length)
          return `other cells changed too: ${changed.map((k) => `${k} ${JSON.stringify(was.get(k))} → ${JSON.stringify(now.get(k))}`).join(', ')}`
        return undefined
      },
    }))
  },
}

export const app: NativeThirdPartyApp = {
  name: 'gnumeric',
  kind: 'spreadsheet, a grid AT-SPI does not show (GTK 3)',
  async start(home) {
    const file = join(home.path, 'stock.gnumeric')
    // Made as a person would: ssconvert turns the CSV into a workbook whose sheet is named after
    // the CSV file; the sheet is then given a plain name, as a person would rename its tab.
    const csv = join(home.path, `${SHEET}.csv`)
    writeFileSync(csv, STOCK)
    const made = Bun.spawnSync(['ssconvert', csv, file], { env: { ...process.env, ...home.env } })
    rmSync(csv)
    if (made.exitCode !== 0) throw new Error(`ssconvert failed: ${made.stderr.toString()}`)
    const xml = gunzipSync(readFileSync(file)).toString('utf8').replaceAll(`${SHEET}.csv`, SHEET)
    writeFileSync(file, gzipSync(xml))
    const running: NativeRunningApp = {
      name: 'gnumeric',
      url: `file://${file}`,
      spec: { executable: 'gnumeric', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [writeCell],
}
