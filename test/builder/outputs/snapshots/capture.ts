// Re-records the screens the output tests read (results pages of real apps, after their submit):
//   bun test/builder/outputs/snapshots/capture.ts
// Each app is started the way the gauntlet starts it (test/gauntlet/apps), given test data, and
// the screen is captured with the real browser driver before and after the action that shows the
// outputs. Volatile parts (window id, port, capture time) are replaced so files change only when
// the element model or the apps do.
import { join } from 'node:path'
import { BrowserDriver } from '../../../../src/agent/drivers/browser/index.ts'
import type { Snapshot } from '../../../../src/protocol/elements.ts'
import { startDokuWiki } from '../../../gauntlet/apps/dokuwiki.ts'

const driver = new BrowserDriver()

async function save(name: string, url: string, origin: string): Promise<void> {
  const window = await driver.launch({ url })
  const snapshot = await driver.snapshot(window.id)
  const stable: Snapshot = {
    ...snapshot,
    window: {
      ...snapshot.window,
      id: name,
      app: 'http://app',
      url: snapshot.window.url?.replace(origin, 'http://app'),
    },
    capturedAt: '2025-01-01T00:00:00.000Z',
  }
  const text = JSON.stringify(stable, null, 2).replaceAll(origin, 'http://app')
  await Bun.write(join(import.meta.dir, `${name}.json`), `${text}\n`)
}

const wiki = await startDokuWiki()
try {
  await driver.start()
  wiki.putPage('invoice_rules', '====== Invoice rules ======\nEvery invoice needs a PO number.\n')
  wiki.putPage('holiday_plan', '====== Holiday plan ======\nBook holiday two weeks ahead.\n')
  wiki.putPage('invoice_archive', '====== Invoice archive ======\nOld invoice scans live on the share.\n')
  const origin = new URL(wiki.url).origin
  await save('dokuwiki-search-before', `${origin}/doku.php?id=start`, origin)
  await save('dokuwiki-search-results', `${origin}/doku.php?id=start&do=search&q=invoice`, origin)
} finally {
  await driver.stop()
  await wiki.stop()
}
