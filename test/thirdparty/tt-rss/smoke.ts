// `bun test/thirdparty/tt-rss/smoke.ts`: the starter works without the builder — tt-rss starts,
// the admin signs in over HTTP (the credentials work, a wrong password does not), a feed is
// published on the local feed proxy, subscribed and fetched by tt-rss, its articles read back from
// the database, clearSessions() ends the signed-in session, and stop() leaves nothing behind.
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN, startTtRss } from './app.ts'

const app = await startTtRss()
const problems: string[] = []
const expect = (ok: boolean, what: string) => {
  if (!ok) problems.push(what)
}
try {
  const cookie = await app.signIn(ADMIN.username, ADMIN.password)
  expect(cookie !== undefined, 'the admin could not sign in over HTTP')
  expect((await app.signIn(ADMIN.username, 'wrong-password')) === undefined, 'a wrong password signed in')
  app.publishFeed('http://news.smoketown.example/rss.xml', 'Smoketown News', [
    {
      title: 'Bridge reopens',
      link: 'http://news.smoketown.example/bridge',
      summary: 'Traffic flows again.',
      published: '2026-11-20T08:00:00Z',
    },
    {
      title: 'Market moves indoors',
      link: 'http://news.smoketown.example/market',
      summary: 'Winter hours start.',
      published: '2026-11-21T08:00:00Z',
    },
  ])
  const id = app.subscribe('http://news.smoketown.example/rss.xml', 'Local')
  app.markRead(id, ['Bridge reopens'])
  const feed = app.feeds().find((f) => f.id === id)
  expect(
    feed?.title === 'Smoketown News' && feed.category === 'Local',
    `feed read back as ${JSON.stringify(feed)}`,
  )
  const articles = app.articles(id)
  expect(
    JSON.stringify(articles.map((a) => [a.title, a.unread])) ===
      JSON.stringify([
        ['Market moves indoors', true],
        ['Bridge reopens', false],
      ]),
    `articles read back as ${JSON.stringify(articles)}`,
  )
  if (cookie) {
    expect(await app.signedIn(cookie), 'the session did not stay signed in')
    expect(app.sessionCount() > 0, 'no session row in ttrss_sessions')
    await app.clearSessions()
    expect(app.sessionCount() === 0, 'clearSessions left session rows')
    expect(!(await app.signedIn(cookie)), 'the old session still works after clearSessions()')
    expect((await app.signIn(ADMIN.username, ADMIN.password)) !== undefined, 'signing in again failed')
  }
  console.log(`feed ${JSON.stringify(feed)}; articles ${JSON.stringify(articles)}`)
} finally {
  await app.stop()
}
const left = Bun.spawnSync(['pgrep', '-af', 'thirdparty-tt-rss-|thirdparty-mariadb-'])
  .stdout.toString()
  .trim()
expect(!left, `processes left: ${left}`)
const dir = /thirdparty-tt-rss-[^/]+/.exec(app.url)?.[0]
expect(!dir || !existsSync(join(tmpdir(), dir)), 'temp dir left')
if (problems.length) {
  console.error(`FAIL:\n${problems.join('\n')}`)
  process.exit(1)
}
console.log('ok: tt-rss started, signed in, seeded, read back, sessions cleared, stopped cleanly')
