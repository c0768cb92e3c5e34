// Third-party apps for the real-apps gauntlet that test/gauntlet does not cover yet, each started
// in a temp dir on a free loopback port with its data on its own server. DokuWiki (Debian's
// `dokuwiki`, served by `php -S`): a private copy of the install with its own conf and data dir,
// so the page files a job writes can be read back from disk.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'
import { freePort, waitUntilUp } from './fossil.ts'
import { startPhpServer } from './php-server.ts'

export interface DokuWiki extends RunningApp {
  /** The wiki text of a page as stored on disk, or undefined when the page does not exist. */
  page(id: string): string | undefined
  /** Writes a page straight into the data dir and indexes it, so the wiki's search finds it. */
  putPage(id: string, text: string): void
}

export async function startDokuWiki(): Promise<DokuWiki> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage('/usr/share/dokuwiki/doku.php', 'dokuwiki')
  const dir = mkdtempSync(join(tmpdir(), 'real-apps-dokuwiki-'))
  const root = join(dir, 'www')
  cpSync('/usr/share/dokuwiki', root, { recursive: true, dereference: true })
  const conf = join(root, 'conf')
  cpSync('/etc/dokuwiki', conf, { recursive: true, dereference: true })
  const data = join(dir, 'data')
  for (const sub of [
    'pages',
    'attic',
    'meta',
    'media',
    'media_attic',
    'media_meta',
    'cache',
    'index',
    'locks',
    'tmp',
    'log',
  ])
    mkdirSync(join(data, sub), { recursive: true })
  // An open wiki (no ACL, anyone edits) whose files live in this temp dir only.
  writeFileSync(
    join(conf, 'local.php'),
    `<?php\n$conf['savedir'] = '${data}';\n$conf['useacl'] = 0;\n$conf['title'] = 'Team wiki';\n$conf['userewrite'] = 0;\n`,
  )
  // Debian's preload points DOKU_CONF at /etc/dokuwiki; this copy reads its own conf.
  writeFileSync(join(root, 'inc', 'preload.php'), `<?php\ndefine('DOKU_CONF', '${conf}/');\n`)
  const port = await freePort()
  const server = startPhpServer(port, root, { cwd: root })
  const url = `http://127.0.0.1:${port}/doku.php?id=start`
  try {
    await waitUntilUp(url)
  } catch (err) {
    await server.stop()
    throw err
  }
  const file = (id: string) => join(data, 'pages', `${id.replaceAll(':', '/')}.txt`)
  return {
    name: 'dokuwiki',
    url,
    page: (id) => (existsSync(file(id)) ? readFileSync(file(id), 'utf8') : undefined),
    putPage(id, text) {
      mkdirSync(join(file(id), '..'), { recursive: true })
      writeFileSync(file(id), text)
      // DokuWiki indexes a page when it is viewed; a file written behind its back needs the indexer.
      const indexed = Bun.spawnSync(['php', join(root, 'bin', 'indexer.php'), '-q'], { cwd: root })
      if (indexed.exitCode !== 0) throw new Error(`dokuwiki indexer failed: ${indexed.stderr.toString()}`)
    },
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
