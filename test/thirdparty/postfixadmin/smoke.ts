// `bun test/thirdparty/postfixadmin/smoke.ts`: starts PostfixAdmin, signs in over HTTP as its
// superadmin (a wrong password is refused), seeds a mailbox with the CLI and reads it back (in the
// database and on the domain's mailbox list), creates one through the web form (stored with its
// password, welcome mail sent), clears the sessions and proves the old session is signed out, then
// stops and checks nothing it started is left.
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Browser } from '../shared/browser.ts'
import { startPostfixAdmin } from './app.ts'

const token = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1]
const signedIn = (html: string) =>
  html.includes('edit.php?table=mailbox') && !html.includes('name="fPassword"')

function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(`smoke: ${what}`)
  console.log(`ok - ${what}`)
}

const temps = () => readdirSync(tmpdir()).filter((d) => d.startsWith('thirdparty-postfixadmin-'))
const tempsBefore = temps()
const app = await startPostfixAdmin()
const port = new URL(app.url).port
const list = `${app.url}list-virtual.php?domain=example.org`
try {
  const signIn = async (b: Browser, password: string) => {
    const page = await b.get(`${app.url}login.php`)
    const t = token(page.text)
    if (!t) throw new Error(`no sign-in token: ${page.text.slice(0, 300)}`)
    return b.post(`${app.url}login.php`, {
      fUsername: app.username,
      fPassword: password,
      lang: 'en',
      token: t,
    })
  }
  const stranger = new Browser()
  await signIn(stranger, 'Wrongpass2026')
  check(!signedIn((await stranger.get(list)).text), 'a wrong password does not sign in')

  const b = new Browser()
  check(signedIn((await signIn(b, app.password)).text), 'signs in as the superadmin')

  app.addMailbox('alice@example.org', 'Alice Archer', 'Alice2026box')
  const alice = app.mailboxes('example.org').find((m) => m.username === 'alice@example.org')
  check(alice?.name === 'Alice Archer' && alice.local_part === 'alice', 'a seeded mailbox reads back')
  check(app.passwordMatches('alice@example.org', 'Alice2026box'), "the seeded mailbox's password checks")
  check(!app.passwordMatches('alice@example.org', 'Other2026box'), 'a wrong mailbox password does not')
  const page = await b.get(list)
  check(signedIn(page.text) && page.text.includes('alice@example.org'), 'the mailbox list shows it')

  const form = await b.get(`${app.url}edit.php?table=mailbox&domain=example.org`)
  const saved = await b.post(`${app.url}edit.php?table=mailbox`, {
    token: token(form.text) ?? '',
    table: 'mailbox',
    'value[local_part]': 'bob',
    'value[domain]': 'example.org',
    'value[password]': 'Bob2026secret',
    'value[password2]': 'Bob2026secret',
    'value[name]': 'Bob Baker',
    'value[quota]': '10',
    'value[active]': '1',
    'value[welcome_mail]': '1',
    submit: 'Add Mailbox',
  })
  const bob = app.mailboxes().find((m) => m.username === 'bob@example.org')
  check(bob?.name === 'Bob Baker', `a mailbox made through the web form is stored (HTTP ${saved.status})`)
  check(app.passwordMatches('bob@example.org', 'Bob2026secret'), 'with its password')
  check(app.mailsSentTo().includes('bob@example.org'), 'and its welcome mail went to the SMTP sink')
  check(
    /The mailbox bob@example.org has been added/.test(saved.text) && !/unable to send/i.test(saved.text),
    'the page says it was added, with no error',
  )

  await app.clearSessions!()
  const after = await b.get(list)
  check(
    !signedIn(after.text) && !after.text.includes('alice@example.org'),
    'cleared: the old session is signed out',
  )
  check(
    signedIn((await signIn(new Browser(), app.password)).text),
    'signs in again after the sessions were cleared',
  )
} finally {
  await app.stop()
}
await Bun.sleep(300)
const server = Bun.spawnSync(['pgrep', '-f', `php -S 127.0.0.1:${port}`])
  .stdout.toString()
  .trim()
check(!server, 'stop() left no php -S process')
const open = await fetch(`${app.url}login.php`).then(
  () => true,
  () => false,
)
check(!open, 'nothing answers on the port any more')
check(
  temps().every((d) => tempsBefore.includes(d)),
  'stop() removed its temp dir',
)
