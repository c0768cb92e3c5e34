// Going to an address in a tab, leaving a page that asks to stay.
import type { PageTarget } from './page-target.ts'
import { settle } from './waiting.ts'

/**
 * Navigates the tab, leaving the page even when it asks to stay ("Leave site? Changes you made
 * may not be saved", an editor's beforeunload): a launch starts the app afresh and a navigate step
 * means to go there, so unsaved input of an earlier run or build is abandoned, as intended.
 */
export async function navigateLeaving(page: PageTarget, url: string, timeoutMs: number) {
  try {
    return await page.call('Page.navigate', { url }, timeoutMs)
  } catch (error) {
    if (page.dialog?.type !== 'beforeunload') throw error
    await page.session.send('Page.handleJavaScriptDialog', { accept: true })
    // The dialog's closing is reported as an event; wait for it (on page changes) before going on.
    const deadline = performance.now() + 5_000
    while (page.dialog && performance.now() < deadline) await page.nextChange(deadline - performance.now())
    // The navigation the page held back now runs; let it finish before going there afresh (a
    // second navigation while it commits would abort one of them).
    await settle(page, { maxMs: Math.min(timeoutMs, 5_000) })
    return page.call('Page.navigate', { url }, timeoutMs)
  }
}
