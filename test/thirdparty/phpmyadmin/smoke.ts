// `bun test/thirdparty/phpmyadmin/smoke.ts`: starts phpMyAdmin on its private MariaDB, signs in
// over HTTP with the job's credentials (a wrong password is refused), seeds and reads back a
// customer (in the database and on phpMyAdmin's page of the table), clears the sessions and
// proves the old session is signed out, then stops and checks nothing it started is left.
import { existsSync } from 'node:fs'
import { Browser } from '../shared/browser.ts'
import { startPhpMyAdmin } from './app.ts'

const token = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1]
const signedIn = (html: string) => !html.includes('name="pma_password"') && html.includes('logout')

function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(`smoke: ${what}`)
  console.log(`ok - ${what}`)
}

const app = await startPhpMyAdmin()
const pids = () =>
  Bun.spawnSync(['pgrep', '-f', app.db.socket]).stdout.toString().trim().split('\n').filter(Boolean)
const mariadbPids = pids()
const tableUrl = `${app.url}?route=/sql&db=shop&table=customers&pos=0`
try {
  check(mariadbPids.length === 1, `mariadbd runs (pid ${mariadbPids.join(',')})`)
  const signIn = async (b: Browser, password: string) => {
    const page = await b.get(app.url)
    const t = token(page.text)
    if (!t) throw new Error(`no sign-in token on ${app.url}: ${page.text.slice(0, 300)}`)
    return b.post(`${app.url}?route=/`, {
      pma_username: app.username,
      pma_password: password,
      server: '1',
      token: t,
      set_session: b.cookies.get('phpMyAdmin') ?? '',
    })
  }
  const stranger = new Browser()
  await signIn(stranger, 'not-the-password')
  check(!signedIn((await stranger.get(tableUrl)).text), 'a wrong password does not sign in')

  const b = new Browser()
  const home = await signIn(b, app.password)
  check(signedIn(home.text), 'signs in with the job credentials')

  const id = app.addCustomer('grace@example.com', 'Grace Hopper', 'Arlington')
  const row = app.customers().find((c) => c.id === id)
  check(row?.email === 'grace@example.com' && row.city === 'Arlington', `seeded customer ${id} reads back`)
  check(app.customers().length === 4, 'the table holds the 3 seeded rows and the new one')
  const table = await b.get(tableUrl)
  check(
    signedIn(table.text) && table.text.includes('grace@example.com') && table.text.includes('Mannheim'),
    'the signed-in session shows the customers table',
  )

  await app.clearSessions!()
  const after = await b.get(tableUrl)
  check(
    !signedIn(after.text) && !after.text.includes('grace@example.com'),
    'cleared: the old session is signed out',
  )
  const again = new Browser()
  check(signedIn((await signIn(again, app.password)).text), 'signs in again after the sessions were cleared')
} finally {
  await app.stop()
}
await Bun.sleep(300)
const left = mariadbPids.filter((pid) => existsSync(`/proc/${pid}`))
const server = Bun.spawnSync(['pgrep', '-f', `php -S 127.0.0.1:${new URL(app.url).port}`])
  .stdout.toString()
  .trim()
check(!left.length && !server, 'stop() left no process (mariadbd, php -S)')
check(!existsSync(app.db.socket), 'stop() removed the temp dirs')
