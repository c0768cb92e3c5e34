// Debian's MediaWiki (the wiki behind Wikipedia), installed the way its own installer does it —
// `maintenance/install.php` with SQLite into a temp dir — and served from /usr/share/mediawiki by
// PHP's own server with MW_CONFIG_FILE pointing at that install. Pages are read and written with
// MediaWiki's own maintenance scripts, so the tests see what the wiki really holds.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'
import { freePort, waitUntilUp } from './fossil.ts'
import { startPhpServer } from './php-server.ts'

export interface MediaWiki extends RunningApp {
  /** A page's wiki text, or undefined when the page does not exist. */
  page(title: string): string | undefined
  /** Saves a page with MediaWiki's own edit script (test data a job can find; indexed for search). */
  putPage(title: string, text: string): void
}

const ROOT = '/usr/share/mediawiki'

export async function startMediaWiki(): Promise<MediaWiki> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${ROOT}/index.php`, 'mediawiki')
  for (const [path, pkg] of [
    ['/usr/share/doc/php-sqlite3', 'php-sqlite3'],
    ['/usr/share/doc/php-intl', 'php-intl'],
    ['/usr/share/doc/php-mbstring', 'php-mbstring'],
    ['/usr/share/doc/php-xml', 'php-xml'],
  ] as const)
    await ensureDebianPackage(path, pkg)
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-mediawiki-'))
  mkdirSync(join(dir, 'db'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const install = Bun.spawnSync(
    [
      'php',
      `${ROOT}/maintenance/install.php`,
      '--dbtype=sqlite',
      `--dbpath=${join(dir, 'db')}`,
      '--dbname=wiki',
      `--server=${origin}`,
      '--scriptpath=',
      '--pass=office-admin-pass-123',
      `--confpath=${dir}`,
      'Team Wiki',
      'Admin',
    ],
    { cwd: dir },
  )
  if (install.exitCode !== 0) throw new Error(`mediawiki install failed: ${install.stderr.toString()}`)
  // MediaWiki runs its job queue by calling itself after a page is sent, which PHP's small
  // server may not have a worker free for: the queue runs from the edit script instead
  // ($wgJobRunRate = 0).
  appendFileSync(join(dir, 'LocalSettings.php'), '\n$wgJobRunRate = 0;\n')
  const env = { ...process.env, MW_CONFIG_FILE: join(dir, 'LocalSettings.php') }
  const server = startPhpServer(port, ROOT, { cwd: ROOT, env })
  const url = `${origin}/index.php?title=Main_Page`
  try {
    await waitUntilUp(url)
  } catch (err) {
    await server.stop()
    throw err
  }
  const script = (name: string, args: string[], stdin?: string) =>
    Bun.spawnSync(['php', `${ROOT}/maintenance/${name}.php`, ...args], {
      cwd: dir,
      env,
      ...(stdin === undefined ? {} : { stdin: new Blob([stdin]) }),
    })
  return {
    name: 'mediawiki',
    url,
    page(title) {
      const got = script('getText', [title])
      return got.exitCode === 0 ? got.stdout.toString() : undefined
    },
    putPage(title, text) {
      const saved = script('edit', ['-s', 'test data', title], text)
      if (saved.exitCode !== 0) throw new Error(`mediawiki edit failed: ${saved.stderr.toString()}`)
    },
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
