// Re-records the snapshots of the value-mapping tests, with the real browser driver:
//   bun test/builder/values/snapshots/capture.ts
// Pages: fossil's own forms (Debian's `fossil`, started here on a throwaway repository), Adminer's
// sign-in and DokuWiki's start page (Debian's `adminer` and `dokuwiki`, served by `php -S` from
// `php-cli`), and the widget patterns real apps use for dates, booleans, choices and unlabelled
// boxes (pages.ts). apt-get install -y --no-install-recommends fossil adminer dokuwiki php-cli
// Volatile parts (window id, port, capture time, refs) are replaced so the files only change
// when the element model or the apps do.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BrowserDriver } from '../../../../src/agent/drivers/browser/index.ts'
import type { Snapshot } from '../../../../src/protocol/elements.ts'
import { PAGES } from './pages.ts'

const dir = mkdtempSync(join(tmpdir(), 'values-capture-'))
const repo = join(dir, 'repo.fossil')
const env = { ...process.env, USER: 'capture' }
const init = Bun.spawnSync(['fossil', 'init', '--admin-user', 'admin', repo], { env })
if (init.exitCode !== 0) throw new Error(`fossil init failed: ${init.stderr.toString()}`)
const added = Bun.spawnSync(
  [
    'fossil',
    'ticket',
    'add',
    'title',
    'Crash on save',
    'type',
    'Code_Defect',
    'status',
    'Open',
    '-R',
    repo,
    '--user',
    'admin',
  ],
  { env },
)
const ticket = /succeeded for ([0-9a-f]{40})/.exec(added.stdout.toString())?.[1]
if (!ticket) throw new Error(`fossil ticket add failed: ${added.stderr.toString()}`)
const fossilPort = 20_000 + Math.floor(Math.random() * 20_000)
const fossil = Bun.spawn(
  ['fossil', 'server', '--port', String(fossilPort), '--localhost', '--localauth', repo],
  { env, stdout: 'ignore', stderr: 'ignore' },
)
// Adminer (Debian's adminer + php-cli), a database admin UI: its sign-in form, served by PHP's own server.
const adminerPort = 20_000 + Math.floor(Math.random() * 20_000)
const adminer = Bun.spawn(['php', '-S', `127.0.0.1:${adminerPort}`, '-t', '/usr/share/adminer'], {
  stdout: 'ignore',
  stderr: 'ignore',
})
// DokuWiki (Debian's dokuwiki), a wiki: its start page, whose search box has only a placeholder and a title.
const wikiPort = 20_000 + Math.floor(Math.random() * 20_000)
const wiki = Bun.spawn(['php', '-S', `127.0.0.1:${wikiPort}`, '-t', '/usr/share/dokuwiki'], {
  stdout: 'ignore',
  stderr: 'ignore',
})
const patterns = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const html = PAGES[new URL(request.url).pathname.slice(1)]
    return html
      ? new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      : new Response('not found', { status: 404 })
  },
})
const driver = new BrowserDriver()

async function waitFor(url: string, deadline: number): Promise<void> {
  for (;;) {
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return
    if (Date.now() > deadline) throw new Error(`${url} did not answer`)
    await Bun.sleep(100)
  }
}

async function save(name: string, url: string, origin: string, volatile?: [string, string]): Promise<void> {
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
  let text = JSON.stringify(stable, null, 2).replaceAll(origin, 'http://app')
  if (volatile)
    text = text.replaceAll(volatile[0], volatile[1]).replaceAll(volatile[0].slice(0, 10), volatile[1])
  await Bun.write(join(import.meta.dir, `${name}.json`), `${text}\n`)
}

try {
  await driver.start()
  await waitFor(`http://127.0.0.1:${fossilPort}/`, Date.now() + 10_000)
  await waitFor(`http://127.0.0.1:${adminerPort}/adminer.php`, Date.now() + 10_000)
  const adminerOrigin = `http://127.0.0.1:${adminerPort}`
  await save('adminer-login', `${adminerOrigin}/adminer.php`, adminerOrigin)
  await waitFor(`http://127.0.0.1:${wikiPort}/doku.php`, Date.now() + 10_000)
  const wikiOrigin = `http://127.0.0.1:${wikiPort}`
  await save('dokuwiki-start', `${wikiOrigin}/doku.php?id=start`, wikiOrigin)
  const fossilOrigin = `http://127.0.0.1:${fossilPort}`
  await save('fossil-tktnew', `${fossilOrigin}/tktnew`, fossilOrigin)
  await save('fossil-wikinew', `${fossilOrigin}/wikinew`, fossilOrigin)
  await save('fossil-tktedit', `${fossilOrigin}/tktedit/${ticket}`, fossilOrigin, [ticket, 'TICKET'])
  const origin = `http://127.0.0.1:${patterns.port}`
  for (const name of Object.keys(PAGES)) await save(name, `${origin}/${name}`, origin)
} finally {
  await driver.stop()
  fossil.kill()
  adminer.kill()
  wiki.kill()
  await Promise.all([fossil.exited, adminer.exited, wiki.exited])
  await patterns.stop(true)
  rmSync(dir, { recursive: true, force: true })
}
