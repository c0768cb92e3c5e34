export interface Row {
  what: string
  value: string
  baseline: string
  ratio: string
  target: string
  /** undefined: no target, the figure is for reference. */
  met?: boolean
  /** Share of the CPUs other processes used while this was measured (null: unknown). */
  othersCpu: number | null
}

/** Above this, other processes disturbed the measurement: the figure is marked, not trusted. */
export const NOISY = 0.1

export const ms = (v: number): string => `${v.toFixed(2)} ms`
export const perS = (v: number, unit: string): string => `${Math.round(v).toLocaleString('en-US')} ${unit}`
export const times = (v: number): string => `${v.toFixed(3)}×`
export const pct = (share: number): string => `${Math.round(share * 100)}%`

const COLUMNS: { title: string; cell: (r: Row) => string }[] = [
  { title: 'what', cell: (r) => r.what },
  { title: 'value', cell: (r) => r.value },
  { title: 'baseline', cell: (r) => r.baseline },
  { title: 'ratio', cell: (r) => r.ratio },
  { title: 'target', cell: (r) => r.target },
  { title: 'met?', cell: (r) => (r.met === undefined ? '—' : r.met ? 'yes' : 'NO') },
  {
    title: "others' CPU",
    cell: (r) => (r.othersCpu === null ? 'n/a' : `${pct(r.othersCpu)}${r.othersCpu > NOISY ? ' NOISY' : ''}`),
  },
]

/** A plain-text table (Markdown-compatible, so it can be pasted into an issue as it is). */
export function table(rows: Row[]): string {
  const cells = [COLUMNS.map((c) => c.title), ...rows.map((r) => COLUMNS.map((c) => c.cell(r)))]
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)))
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`
  const [head, ...body] = cells
  return [line(head!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n')
}
