// "The page has settled": what a user waits for before looking at the result of a click.
import { DriverError } from '../../../protocol/driver.ts'
import type { PageTarget } from './page-target.ts'

export interface SettleOptions {
  /** How long the page must stay unchanged (no mutation, no request) to count as settled. */
  quietMs?: number
  /** Upper bound: an app that animates or polls forever must not hang the caller. */
  maxMs?: number
}

/**
 * Resolves once the tab is not loading, has no document/XHR/fetch request in flight and its DOM
 * has been quiet for quietMs, or as soon as a native dialog opens (the page is frozen then).
 * It wakes on every change event rather than polling, and never waits longer than maxMs.
 */
export async function settle(page: PageTarget, options: SettleOptions = {}): Promise<void> {
  // The action itself counts as activity: its effects may reach us after its acknowledgement.
  page.lastActivityAt = Math.max(page.lastActivityAt, performance.now())
  const quietMs = options.quietMs ?? 100
  const deadline = performance.now() + (options.maxMs ?? 5_000)
  for (;;) {
    if (page.dialog) return
    const now = performance.now()
    if (now >= deadline) return
    const quietFor = now - page.lastActivityAt
    if (!page.busy && quietFor >= quietMs) {
      // Quiet, but the app may say it is still working (aria-busy while a save is under way).
      const seen = page.changeSeq
      if (!(await markedBusy(page))) return
      // A change during the check counts: only wait if nothing happened meanwhile.
      if (page.changeSeq === seen) await page.nextChange(deadline - performance.now())
      continue
    }
    // Busy: wait for the next change. Idle but recently changed: wait out the rest of the quiet
    // window, waking early if something changes again.
    // Busy only with requests: wake when they turn into background work, if nothing changes before.
    const wait = page.busy ? (page.loading ? deadline - now : page.busyFor(now)) : quietMs - quietFor
    await page.nextChange(Math.min(wait, deadline - now))
  }
}

async function markedBusy(page: PageTarget): Promise<boolean> {
  try {
    const { result } = await page.call('Runtime.evaluate', {
      expression: `!!document.querySelector('[aria-busy="true"]')`,
      returnByValue: true,
    })
    return result.value === true
  } catch (error) {
    if (error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG') return false
    throw error
  }
}
