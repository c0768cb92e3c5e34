import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks spent by all CPUs (busy or idle), from /proc/stat. */
function machineTicks(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  return fields
    .slice(0, 8)
    .map(Number)
    .reduce((a, b) => a + b, 0)
}

const PF_KTHREAD = 0x00200000

/** CPU ticks of every user-space process that is not this one or one of its descendants. */
function othersTicks(): Map<number, number> {
  const procs = new Map<number, { ppid: number; ticks: number }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after "(comm)": state, ppid (1), … flags (6), … utime (11), stime (12).
      const f = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number)
      if ((f[6]! & PF_KTHREAD) !== 0) continue
      procs.set(Number(entry), { ppid: f[1]!, ticks: f[11]! + f[12]! })
    } catch {
      // exited while we looked
    }
  }
  const ours = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === process.pid) return true
      p = procs.get(p)?.ppid
    }
    return false
  }
  const others = new Map<number, number>()
  for (const [pid, p] of procs) if (!ours(pid)) others.set(pid, p.ticks)
  return others
}

/**
 * Share of the machine's CPU that other user-space processes (a test suite, a browser, a type
 * check) used over an interval: beside them, the bench's figures are noise. The bench, its
 * servers and wrk are its descendants and do not count, nor do kernel threads.
 */
export class OthersCpu {
  #start?: { total: number; others: Map<number, number> }

  start(): this {
    try {
      this.#start = { total: machineTicks(), others: othersTicks() }
    } catch {
      this.#start = undefined // no /proc here
    }
    return this
  }

  /** The share of all CPUs others used since start(), 0…1, or null when unknown. */
  stop(): number | null {
    if (!this.#start) return null
    const total = machineTicks() - this.#start.total
    if (total <= 0) return null
    let used = 0
    for (const [pid, ticks] of othersTicks()) used += Math.max(0, ticks - (this.#start.others.get(pid) ?? 0))
    return Math.min(1, used / total)
  }
}

/** Others' CPU share over `ms`. */
export async function othersCpuOver(ms: number): Promise<number | null> {
  const watch = new OthersCpu().start()
  await Bun.sleep(ms)
  return watch.stop()
}
