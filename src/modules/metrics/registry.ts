/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: counters, gauges and
 * histograms with labels are all deskhook needs, and recording one is a Map lookup and an add,
 * cheap enough for the trigger path. Each server builds its own registry (no global default).
 */

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Label values may hold anything (a job's path): backslash, quote and newline are escaped. */
export const escapeLabelValue = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

const formatValue = (v: number) =>
  Number.isNaN(v) ? 'NaN' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : String(v)

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts = names.map((n, i) => `${n}="${escapeLabelValue(values[i] ?? '')}"`)
  if (extra) parts.push(extra)
  return parts.length ? `{${parts.join(',')}}` : ''
}

interface Metric {
  readonly name: string
  render(out: string[]): void
}

abstract class Family<S> implements Metric {
  /** Series by their label values joined with NUL (which no label value below contains). */
  protected readonly series = new Map<string, { values: string[]; data: S }>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    private readonly type: string,
  ) {}

  protected abstract fresh(): S
  protected abstract lines(prefix: string, labels: readonly string[], data: S, out: string[]): void

  protected get(values: readonly string[]): S {
    const key = values.length === 1 ? values[0]! : values.join('\0')
    let s = this.series.get(key)
    if (!s) {
      s = { values: [...values], data: this.fresh() }
      this.series.set(key, s)
    }
    return s.data
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`)
    // A series without labels exists from the start: a counter reads 0 before its first event.
    if (this.labelNames.length === 0 && this.series.size === 0) this.get([])
    for (const { values, data } of this.series.values()) this.lines(this.name, values, data, out)
  }
}

export class Counter extends Family<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'counter')
  }
  protected fresh() {
    return { v: 0 }
  }
  inc(values: readonly string[] = [], by = 1): void {
    this.get(values).v += by
  }
  value(values: readonly string[] = []): number {
    return this.series.get(values.join('\0'))?.data.v ?? 0
  }
  protected lines(name: string, labels: readonly string[], data: { v: number }, out: string[]) {
    out.push(`${name}${labelText(this.labelNames, labels)} ${formatValue(data.v)}`)
  }
}

export class Gauge extends Family<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'gauge')
  }
  protected fresh() {
    return { v: 0 }
  }
  set(values: readonly string[], v: number): void {
    this.get(values).v = v
  }
  /** For gauges read fresh at every scrape (from the database, the hub): forget the old series. */
  reset(): void {
    this.series.clear()
  }
  protected lines(name: string, labels: readonly string[], data: { v: number }, out: string[]) {
    out.push(`${name}${labelText(this.labelNames, labels)} ${formatValue(data.v)}`)
  }
}

interface HistogramData {
  /** Per bucket (not cumulative; summed at render), the last one is +Inf. */
  counts: number[]
  sum: number
  count: number
}

export class Histogram extends Family<HistogramData> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames, 'histogram')
  }
  protected fresh(): HistogramData {
    return { counts: new Array(this.buckets.length + 1).fill(0), sum: 0, count: 0 }
  }
  observe(values: readonly string[], v: number): void {
    const d = this.get(values)
    const b = this.buckets
    let i = 0
    while (i < b.length && v > b[i]!) i++
    d.counts[i] = (d.counts[i] ?? 0) + 1
    d.sum += v
    d.count++
  }
  protected lines(name: string, labels: readonly string[], d: HistogramData, out: string[]) {
    let cumulative = 0
    for (let i = 0; i <= this.buckets.length; i++) {
      cumulative += d.counts[i]!
      const le = i < this.buckets.length ? formatValue(this.buckets[i]!) : '+Inf'
      out.push(`${name}_bucket${labelText(this.labelNames, labels, `le="${le}"`)} ${cumulative}`)
    }
    out.push(`${name}_sum${labelText(this.labelNames, labels)} ${formatValue(d.sum)}`)
    out.push(`${name}_count${labelText(this.labelNames, labels)} ${d.count}`)
  }
}

export class Registry {
  readonly #metrics: Metric[] = []

  add<M extends Metric>(metric: M): M {
    this.#metrics.push(metric)
    return metric
  }

  render(): string {
    const out: string[] = []
    for (const m of this.#metrics) m.render(out)
    return `${out.join('\n')}\n`
  }
}
