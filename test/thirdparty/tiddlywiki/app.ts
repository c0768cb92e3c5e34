// TiddlyWiki (npm `tiddlywiki`, pinned), a single-page wiki with its own JS framework, started the
// way its docs say: a fresh wiki folder (`--init server`) in a temp dir, served by its Node server
// (`--listen`) on a free loopback port. Open (no sign-in). Every note (a "tiddler") is stored by the
// server as a .tid file in the wiki's tiddlers/ folder: the checks read those files.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export const TIDDLYWIKI_VERSION = '5.4.1'
const CACHE = join(tmpdir(), 'deskhook-thirdparty-cache', `tiddlywiki-${TIDDLYWIKI_VERSION}`)
const ENTRY = join(CACHE, 'node_modules', 'tiddlywiki', 'tiddlywiki.js')
/** How often an open browser asks the server for changes (seeded notes show up within it). */
const POLL_MS = 1000

export interface Note {
  title: string
  text: string
  tags: string[]
  fields: Record<string, string>
}

export interface TiddlyWiki extends RunningApp {
  /** The wiki's notes as stored on disk (system tiddlers, `$:/…`, left out). */
  notes(): Note[]
  /** One stored note by its exact title, waiting up to `waitMs` for the browser's save to land. */
  note(title: string, waitMs?: number): Note | undefined
  /** Adds notes through the server's HTTP API (not the UI); open browsers see them within a poll. */
  putNotes(notes: { title: string; text: string; tags?: string[] }[]): void
}

/** Installs the pinned TiddlyWiki into a cache dir (not the project's package.json) when missing. */
export async function ensureTiddlyWiki(): Promise<string> {
  if (existsSync(ENTRY)) return ENTRY
  await ensureDebianPackage('/usr/bin/node', 'nodejs')
  await ensureDebianPackage('/usr/bin/npm', 'npm')
  // Installed beside the cache and moved in whole, so a half-done install is never taken for one.
  const partial = `${CACHE}.partial-${process.pid}`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  const npm = Bun.spawn(
    ['npm', 'install', '--prefix', partial, '--no-audit', '--no-fund', `tiddlywiki@${TIDDLYWIKI_VERSION}`],
    { stdout: 'ignore', stderr: 'pipe' },
  )
  const why = await new Response(npm.stderr).text()
  if ((await npm.exited) !== 0) {
    rmSync(partial, { recursive: true, force: true })
    throw new Error(`npm could not install tiddlywiki@${TIDDLYWIKI_VERSION}: ${why.trim().slice(-300)}`)
  }
  try {
    renameSync(partial, CACHE)
  } catch {
    // Another run installed it meanwhile.
    rmSync(partial, { recursive: true, force: true })
  }
  if (!existsSync(ENTRY)) throw new Error(`tiddlywiki installed but ${ENTRY} is missing`)
  return ENTRY
}

export async function startTiddlyWiki(): Promise<TiddlyWiki> {
  const entry = await ensureTiddlyWiki()
  const node = Bun.which('node') ?? '/usr/bin/node'
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-tiddlywiki-'))
  const wiki = join(dir, 'wiki')
  const init = Bun.spawnSync([node, entry, wiki, '--init', 'server'], { stdout: 'pipe', stderr: 'pipe' })
  if (init.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`tiddlywiki --init failed: ${init.stderr.toString()}`)
  }
  const tiddlers = join(wiki, 'tiddlers')
  mkdirSync(tiddlers, { recursive: true })
  // The team's wiki: its title, and browsers that pick up others' changes every second.
  writeFileSync(join(tiddlers, '$__SiteTitle.tid'), 'title: $:/SiteTitle\n\nTeam wiki\n')
  writeFileSync(
    join(tiddlers, '$__config_SyncPollingInterval.tid'),
    `title: $:/config/SyncPollingInterval\n\n${POLL_MS}\n`,
  )
  const port = await freePort()
  // Its own process group (setsid), so stop() ends the server and anything it started.
  const server = Bun.spawn(['setsid', node, entry, wiki, '--listen', `port=${port}`, 'host=127.0.0.1'], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const url = `http://127.0.0.1:${port}/`
  const stop = async () => {
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      server.kill()
    }
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitUntilUp(`${url}status`, 30_000)
  } catch (err) {
    await stop()
    throw err
  }
  const notes = () =>
    readdirSync(tiddlers)
      .filter((f) => f.endsWith('.tid'))
      .map((f) => parseTid(readFileSync(join(tiddlers, f), 'utf8')))
      .filter((n) => !n.title.startsWith('$:/'))
  const note = (title: string, waitMs = 0) => {
    const deadline = Date.now() + waitMs
    for (;;) {
      const found = notes().find((n) => n.title === title)
      if (found || Date.now() >= deadline) return found
      // The browser saves to the server a moment after the editor closes: no event to wait on.
      Bun.sleepSync(250)
    }
  }
  return {
    name: 'tiddlywiki',
    url,
    notes,
    note,
    putNotes(list) {
      // Synchronous (samples and live inputs are made synchronously): a short Bun script does the PUTs.
      const script = `
        const [base, body] = process.argv.slice(-2)
        for (const n of JSON.parse(body)) {
          const res = await fetch(base + 'recipes/default/tiddlers/' + encodeURIComponent(n.title), {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'TiddlyWiki' },
            body: JSON.stringify({ title: n.title, text: n.text, tags: n.tags, type: 'text/vnd.tiddlywiki' }),
          })
          if (!res.ok) { console.error(n.title + ': HTTP ' + res.status); process.exit(1) }
        }`
      const body = JSON.stringify(
        list.map((n) => ({ title: n.title, text: n.text, tags: stringifyTags(n.tags ?? []) })),
      )
      const put = Bun.spawnSync([process.execPath, '-e', script, url, body], { stderr: 'pipe' })
      if (put.exitCode !== 0) throw new Error(`tiddlywiki PUT failed: ${put.stderr.toString()}`)
      // On disk once the server's filesystem syncer has run, and in open browsers after a poll.
      for (const n of list)
        if (!note(n.title, 10_000)) throw new Error(`tiddler “${n.title}” was not saved to disk`)
      Bun.sleepSync(POLL_MS * 2.5)
    },
    stop,
  }
}

/** A .tid file: `name: value` header lines, a blank line, then the text. */
export function parseTid(source: string): Note {
  const blank = source.indexOf('\n\n')
  const head = blank < 0 ? source : source.slice(0, blank)
  const text = blank < 0 ? '' : source.slice(blank + 2)
  const fields: Record<string, string> = {}
  for (const line of head.split('\n')) {
    const at = line.indexOf(':')
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return {
    title: fields.title ?? '',
    text: text.replace(/\n$/, ''),
    tags: parseTags(fields.tags ?? ''),
    fields,
  }
}

/** TiddlyWiki's tag list: words, or `[[several words]]`. */
export function parseTags(value: string): string[] {
  const tags: string[] = []
  for (const m of value.matchAll(/\[\[([^\]]*)\]\]|(\S+)/g)) tags.push((m[1] ?? m[2])!)
  return tags
}

function stringifyTags(tags: string[]): string {
  return tags.map((t) => (/\s/.test(t) ? `[[${t}]]` : t)).join(' ')
}
