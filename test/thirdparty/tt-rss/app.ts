// Tiny Tiny RSS (Debian `tt-rss`), a PHP feed reader with a JS front end, behind a sign-in. Started
// as an admin would: a private copy of its web root with its own config.php, its database on a
// private MariaDB (test/thirdparty/shared/mariadb.ts) loaded from the shipped schema, the admin's
// password set in the users table, PHP's web server on a free loopback port, run as www-data
// (tt-rss refuses to run as root). Feeds come from a local proxy (feed-server.ts) that tt-rss
// fetches through, so feed URLs look real and nothing leaves the machine. Sessions live in the
// database (ttrss_sessions): clearSessions() empties that table.
import { createHash, randomBytes } from 'node:crypto'
import {
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Subprocess } from 'bun'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'
import { type MariaDb, startMariaDb } from '../shared/mariadb.ts'

const WEB_ROOT = '/usr/share/tt-rss/www'
const SCHEMA = '/usr/share/tt-rss/schema/ttrss_schema_mysql.sql'
/** The account the jobs sign in with (the app's own admin). */
export const ADMIN = { username: 'admin', password: 'reader-admin-pass' }
/** Categories the owner has made for their feeds. */
export const CATEGORIES = ['News', 'Technology', 'Local']

export interface Article {
  title: string
  link: string
  /** Shown as the article's text. */
  summary: string
  /** ISO date. */
  published: string
}

export interface StoredFeed {
  id: number
  title: string
  feedUrl: string
  /** The category's title, or null for "Uncategorized". */
  category: string | null
}

export interface StoredArticle {
  title: string
  link: string
  unread: boolean
}

export interface TtRss extends RunningApp {
  /** The admin's feeds as stored in the database. */
  feeds(): StoredFeed[]
  /** A feed's articles as stored for the admin. */
  articles(feedId: number): StoredArticle[]
  /** Publishes a feed at a URL on the local feed proxy (RSS 2.0, or Atom when `atom`). */
  publishFeed(url: string, title: string, articles: Article[], atom?: boolean): void
  /** Subscribes the admin to a published feed without the UI and fetches it now; returns its id. */
  subscribe(url: string, category?: string): number
  /** Marks the admin's articles with these titles as read (in the database). */
  markRead(feedId: number, titles: string[]): void
  /** Signs in over HTTP (the login form's POST); returns the session cookie, or undefined. */
  signIn(username: string, password: string): Promise<string | undefined>
  /** Whether a session cookie still opens the reader (not the sign-in form). */
  signedIn(cookie: string): Promise<boolean>
  /** Rows in the session table (for the smoke test). */
  sessionCount(): number
  clearSessions(): Promise<void>
}

export async function startTtRss(): Promise<TtRss> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${WEB_ROOT}/index.php`, 'tt-rss')
  await ensureDebianPackage('/usr/share/doc/php-mysql/copyright', 'php-mysql')
  const cleanups: (() => Promise<void> | void)[] = []
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  }
  try {
    return await start(cleanups, stop)
  } catch (err) {
    await stop()
    throw err
  }
}

async function start(cleanups: (() => Promise<void> | void)[], stop: () => Promise<void>): Promise<TtRss> {
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-tt-rss-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))

  const db: MariaDb = await startMariaDb()
  cleanups.push(() => db.stop())
  const dbPassword = `ttrss-${randomBytes(6).toString('hex')}`
  db.createDatabase('ttrss', 'ttrss', dbPassword)
  db.query(await Bun.file(SCHEMA).text(), 'ttrss')
  const q = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
  const salt = randomBytes(125).toString('hex')
  const hash = `MODE2:${createHash('sha256')
    .update(salt + ADMIN.password)
    .digest('hex')}`
  db.query(
    [
      `UPDATE ttrss_users SET pwd_hash = ${q(hash)}, salt = ${q(salt)}, created = NOW() WHERE login = 'admin';`,
      ...CATEGORIES.map((c) => `INSERT INTO ttrss_feed_categories (owner_uid, title) VALUES (1, ${q(c)});`),
    ].join('\n'),
    'ttrss',
  )
  const sql = (s: string) => db.query(s, 'ttrss')

  // The local feed proxy, its own process (group) so synchronous seeding can wait on tt-rss.
  const feeds = join(dir, 'feeds')
  mkdirSync(feeds)
  const feedPort = await freePort()
  const feedServer = Bun.spawn(
    ['setsid', process.execPath, join(import.meta.dir, 'feed-server.ts'), feeds, String(feedPort)],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  cleanups.push(() => killGroup(feedServer))
  await waitUntilUp(`http://127.0.0.1:${feedPort}/_up`)

  // A private web root: the shipped one with this instance's config.php and writable dirs.
  const root = join(dir, 'www')
  cpSync(WEB_ROOT, root, { recursive: true, dereference: false })
  unlinkSync(join(root, 'config.php'))
  unlinkSync(join(root, 'feed-icons'))
  mkdirSync(join(root, 'feed-icons'))
  const cache = join(dir, 'cache')
  for (const sub of ['images', 'upload', 'export', 'feeds']) mkdirSync(join(cache, sub), { recursive: true })
  const lock = join(dir, 'lock')
  mkdirSync(lock)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  writeFileSync(join(root, 'config.php'), config({ db: db.port, dbPassword, url, lock, cache, feedPort }))
  const wwwData = { uid: 33, gid: 33 }
  chownTree(dir, wwwData.uid, wwwData.gid)
  const asWwwData = ['setpriv', '--reuid=www-data', '--regid=www-data', '--clear-groups']

  const log = join(dir, 'php-server.log')
  const server = Bun.spawn(['setsid', ...asWwwData, 'php', '-S', `127.0.0.1:${port}`, '-t', root], {
    cwd: root,
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4', HOME: dir },
    stdout: Bun.file(log),
    stderr: Bun.file(log),
  })
  cleanups.push(() => killGroup(server))
  try {
    await waitUntilUp(`${url}public.php?op=login`, 30_000)
  } catch (err) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-1500) : ''
    throw new Error(`${(err as Error).message}: ${tail}`)
  }

  const feedFile = (feedUrl: string) => {
    const u = new URL(feedUrl)
    return join(feeds, u.hostname.toLowerCase(), decodeURIComponent(u.pathname))
  }
  const readFeeds = (): StoredFeed[] =>
    sql(
      `SELECT f.id, f.title, f.feed_url, COALESCE(c.title, 'NULL') FROM ttrss_feeds f
       LEFT JOIN ttrss_feed_categories c ON c.id = f.cat_id WHERE f.owner_uid = 1 ORDER BY f.id;`,
    ).map(([id, title, feedUrl, category]) => ({
      id: Number(id),
      title: title!,
      feedUrl: feedUrl!,
      category: category === 'NULL' ? null : category!,
    }))
  const request = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { redirect: 'manual', ...init })
  const signedIn = async (cookie: string) => {
    const page = await (await request('index.php', { headers: { Cookie: cookie } })).text()
    // The reader's page loads its app (a feed tree); the sign-in page has the login form.
    return !page.includes('name="login"') && page.includes('feeds-holder')
  }

  return {
    name: 'tt-rss',
    url,
    feeds: readFeeds,
    articles: (feedId) =>
      sql(
        `SELECT e.title, e.link, ue.unread FROM ttrss_user_entries ue JOIN ttrss_entries e ON e.id = ue.ref_id
         WHERE ue.feed_id = ${Number(feedId)} AND ue.owner_uid = 1 ORDER BY e.updated DESC, e.id;`,
      ).map(([title, link, unread]) => ({ title: title!, link: link!, unread: unread === '1' })),
    publishFeed(feedUrl, title, articles, atom = false) {
      const file = feedFile(feedUrl)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, atom ? atomFeed(feedUrl, title, articles) : rssFeed(feedUrl, title, articles))
    },
    subscribe(feedUrl, category) {
      const cat = category
        ? `(SELECT id FROM ttrss_feed_categories WHERE owner_uid = 1 AND title = ${q(category)})`
        : 'NULL'
      sql(
        `INSERT INTO ttrss_feeds (owner_uid, feed_url, title, cat_id, update_method, auth_pass_encrypted)
         VALUES (1, ${q(feedUrl)}, '[Unknown]', ${cat}, 0, 0);`,
      )
      const id = Number(
        sql(`SELECT id FROM ttrss_feeds WHERE owner_uid = 1 AND feed_url = ${q(feedUrl)};`)[0]![0],
      )
      // tt-rss's own updater fetches it (through the feed proxy), as its update daemon would.
      const update = Bun.spawnSync([...asWwwData, 'php', join(root, 'update.php'), `--update-feed=${id}`], {
        cwd: root,
        env: { ...process.env, HOME: dir },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const stored = readFeeds().find((f) => f.id === id)
      if (update.exitCode !== 0 || !stored || stored.title === '[Unknown]')
        throw new Error(
          `tt-rss did not fetch ${feedUrl} (exit ${update.exitCode}): ${update.stdout.toString().slice(-500)}${update.stderr.toString().slice(-500)}`,
        )
      return id
    },
    markRead(feedId, titles) {
      if (!titles.length) return
      sql(
        `UPDATE ttrss_user_entries ue JOIN ttrss_entries e ON e.id = ue.ref_id SET ue.unread = 0, ue.last_read = NOW()
         WHERE ue.feed_id = ${Number(feedId)} AND ue.owner_uid = 1 AND e.title IN (${titles.map(q).join(', ')});`,
      )
    },
    async signIn(username, password) {
      const res = await request('public.php?op=login', {
        method: 'POST',
        body: new URLSearchParams({ op: 'login', login: username, password }),
      })
      const cookie = /ttrss_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
      if (!cookie) return undefined
      return (await signedIn(`ttrss_sid=${cookie}`)) ? `ttrss_sid=${cookie}` : undefined
    },
    signedIn,
    sessionCount: () => Number(sql('SELECT COUNT(*) FROM ttrss_sessions;')[0]![0]),
    async clearSessions() {
      sql('DELETE FROM ttrss_sessions;')
    },
    stop,
  }
}

function config(o: {
  db: number
  dbPassword: string
  url: string
  lock: string
  cache: string
  feedPort: number
}): string {
  const defines: [string, string | number | boolean][] = [
    ['DB_TYPE', 'mysql'],
    ['DB_HOST', '127.0.0.1'],
    ['DB_PORT', String(o.db)],
    ['DB_USER', 'ttrss'],
    ['DB_NAME', 'ttrss'],
    ['DB_PASS', o.dbPassword],
    ['MYSQL_CHARSET', 'UTF8'],
    ['SELF_URL_PATH', o.url],
    ['SINGLE_USER_MODE', false],
    // No update daemon: the reader updates feeds while it is open, as tt-rss offers.
    ['SIMPLE_UPDATE_MODE', true],
    ['PHP_EXECUTABLE', '/usr/bin/php'],
    ['LOCK_DIRECTORY', o.lock],
    ['CACHE_DIR', o.cache],
    ['ICONS_DIR', 'feed-icons'],
    ['ICONS_URL', 'feed-icons'],
    ['AUTH_AUTO_CREATE', true],
    ['AUTH_AUTO_LOGIN', true],
    ['FORCE_ARTICLE_PURGE', 0],
    ['ENABLE_REGISTRATION', false],
    ['REG_NOTIFY_ADDRESS', 'admin@reader.example'],
    ['REG_MAX_USERS', 10],
    ['SESSION_COOKIE_LIFETIME', 86400],
    ['SMTP_FROM_NAME', 'Tiny Tiny RSS'],
    ['SMTP_FROM_ADDRESS', 'noreply@reader.example'],
    ['DIGEST_SUBJECT', '[tt-rss] New headlines for last 24 hours'],
    ['CHECK_FOR_UPDATES', false],
    ['ENABLE_GZIP_OUTPUT', false],
    ['PLUGINS', 'auth_internal, note'],
    ['LOG_DESTINATION', 'sql'],
    ['CONFIG_VERSION', 26],
    // The way out to the feeds' sites: the local feed proxy.
    ['_HTTP_PROXY', `127.0.0.1:${o.feedPort}`],
  ]
  const php = (v: string | number | boolean) =>
    typeof v === 'string' ? `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : String(v)
  return `<?php\n${defines.map(([k, v]) => `define('${k}', ${php(v)});`).join('\n')}\n`
}

function rssFeed(url: string, title: string, articles: Article[]): string {
  const site = new URL(url).origin
  const items = articles
    .map(
      (a) => `    <item>
      <title>${xml(a.title)}</title>
      <link>${xml(a.link)}</link>
      <guid isPermaLink="true">${xml(a.link)}</guid>
      <pubDate>${new Date(a.published).toUTCString()}</pubDate>
      <description>${xml(a.summary)}</description>
    </item>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>${xml(title)}</title>
    <link>${xml(site)}/</link>
    <description>${xml(title)}</description>
    <language>en</language>
${items}
  </channel>
</rss>
`
}

function atomFeed(url: string, title: string, articles: Article[]): string {
  const site = new URL(url).origin
  const latest =
    articles
      .map((a) => a.published)
      .sort()
      .at(-1) ?? new Date().toISOString()
  const entries = articles
    .map(
      (a) => `  <entry>
    <title>${xml(a.title)}</title>
    <link rel="alternate" href="${xml(a.link)}"/>
    <id>${xml(a.link)}</id>
    <updated>${new Date(a.published).toISOString()}</updated>
    <summary>${xml(a.summary)}</summary>
  </entry>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${xml(title)}</title>
  <link rel="alternate" href="${xml(site)}/"/>
  <link rel="self" href="${xml(url)}"/>
  <id>${xml(url)}</id>
  <updated>${new Date(latest).toISOString()}</updated>
${entries}
</feed>
`
}

const xml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

function chownTree(path: string, uid: number, gid: number): void {
  const done = Bun.spawnSync(['chown', '-R', '--no-dereference', `${uid}:${gid}`, path])
  if (done.exitCode !== 0) chownSync(path, uid, gid)
}

async function killGroup(proc: Subprocess): Promise<void> {
  try {
    process.kill(-proc.pid, 'SIGTERM')
  } catch {
    proc.kill()
  }
  const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)])
  if (!done) {
    try {
      process.kill(-proc.pid, 'SIGKILL')
    } catch {
      proc.kill('SIGKILL')
    }
    await proc.exited
  }
}
