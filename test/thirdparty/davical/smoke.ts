// `bun test/thirdparty/davical/smoke.ts`: the starter works without the builder — its own
// PostgreSQL and DAViCal's database come up, principals seeded through the admin UI's form read
// back from PostgreSQL (with a password that checks), headless Chromium signs in and sees them in
// the user and resource lists (asking no host but the app's own), clearing the sessions makes the
// admin UI ask for the password again, and stop() leaves no process, temp dir or config file.
import { existsSync, readdirSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { DAVICAL_PASSWORD, DAVICAL_USER } from './app.ts'
import { app } from './index.ts'

const t0 = performance.now()
const site = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${site.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
const port = new URL(site.url).port
const conf = `/etc/davical/davical-test-127.0.0.1-${port}-conf.php`
const dir = /\/tmp\/thirdparty-davical-[^/\s]+/.exec(
  Bun.spawnSync(['pgrep', '-af', 'postgres -D /tmp/thirdparty-davical-']).stdout.toString(),
)?.[0]
if (!existsSync(conf)) fail(`no ${conf}`)
try {
  const ids = site.addUsers([
    { username: 'smoke-ada', fullName: 'Ada Smoke', email: 'ada@smoke.example', password: 'Smoke-Pass-1' },
    { username: 'smoke-bob', fullName: 'Bob & Co Smoke', email: 'bob@smoke.example' },
    { username: 'smoke-room', fullName: 'Smoke Room', type: 'Resource' },
  ])
  console.log('seeded', ids)
  const stored = site.principals()
  console.log('stored', stored)
  const ada = stored.find((p) => p.username === 'smoke-ada')
  if (ada?.fullname !== 'Ada Smoke' || ada.email !== 'ada@smoke.example' || ada.principalId !== ids[0])
    fail(`the database has ${JSON.stringify(ada)}`)
  // DAViCal stores its text fields HTML-escaped; the readers give them as shown.
  if (stored.find((p) => p.username === 'smoke-bob')?.fullname !== 'Bob & Co Smoke')
    fail('Bob & Co reads back escaped')
  if (stored.find((p) => p.username === 'smoke-room')?.type !== 'Resource')
    fail('smoke-room is not a Resource')
  if (site.users().some((u) => u.username === 'smoke-room')) fail('users() lists a resource')
  if (!site.passwordMatches('smoke-ada', 'Smoke-Pass-1')) fail("smoke-ada's password does not check")
  if (site.passwordMatches('smoke-ada', 'Smoke-Pass-2')) fail('a wrong password checks')
  if (!site.passwordMatches(DAVICAL_USER, DAVICAL_PASSWORD)) fail("the admin's password does not check")
  if (site.addUsers([{ username: 'smoke-ada', fullName: 'Again' }])[0] !== ids[0]) fail('re-seeding differs')

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const elsewhere: string[] = []
    tab.on('request', (r) => {
      if (!r.url().startsWith(site.url) && !/^data:/.test(r.url())) elsewhere.push(r.url())
    })
    const errors: string[] = []
    tab.on('pageerror', (e) => errors.push(e.message))
    await tab.goto(site.url)
    await tab.getByRole('heading', { name: 'Log On Please' }).waitFor({ timeout: 10_000 })
    await tab.getByRole('row', { name: 'User Name:' }).getByRole('textbox').fill(DAVICAL_USER)
    await tab.getByRole('row', { name: 'Password:' }).getByRole('textbox').fill(DAVICAL_PASSWORD)
    await tab.getByRole('button', { name: 'GO!' }).click()
    await tab.getByText('You are logged on as admin').waitFor({ timeout: 10_000 })
    await tab.getByRole('link', { name: 'User Functions' }).click()
    await tab.getByRole('heading', { name: 'User Calendar Principals' }).waitFor({ timeout: 10_000 })
    const users = (await tab.locator('#browse_table tbody td').allTextContents()).join(' | ')
    console.log(`user list: ${users.slice(0, 400)}`)
    for (const want of ['smoke-ada', 'Ada Smoke', 'bob@smoke.example', 'Bob & Co Smoke', String(ids[0])])
      if (!users.includes(want)) fail(`the user list lacks ${want}`)
    if (users.includes('smoke-room')) fail('the user list shows the resource')
    await tab.goto(`${site.url}admin.php?action=browse&t=principal&type=2`)
    const resources = (await tab.locator('#browse_table tbody td').allTextContents()).join(' | ')
    if (!resources.includes('Smoke Room')) fail(`the resource list is ${resources}`)
    await tab.goBack()
    await tab.getByRole('link', { name: String(ids[0]), exact: true }).click()
    await tab.getByRole('heading', { name: 'Principal: Ada Smoke' }).waitFor({ timeout: 10_000 })
    const email = await tab
      .getByRole('row', { name: /^Email Address:/ })
      .getByRole('textbox')
      .inputValue()
    if (email !== 'ada@smoke.example') fail(`the principal's form shows email ${email}`)

    console.log(`sessions after sign-in: ${site.sessionCount()}`)
    if (site.sessionCount() < 1) fail('DAViCal holds no session after the sign-in')
    await site.clearSessions?.()
    console.log(`sessions after clear: ${site.sessionCount()}`)
    await tab.getByRole('link', { name: 'User Functions' }).click()
    await tab
      .getByRole('heading', { name: 'Log On Please' })
      .waitFor({ timeout: 10_000 })
      .then(
        () => console.log('after clearSessions the admin UI asks for the password again'),
        () => fail('after clearSessions the admin UI did not ask for the password'),
      )
    if (errors.length) fail(`page errors: ${errors.join('; ')}`)
    if (elsewhere.length) fail(`the page asked other hosts: ${elsewhere.join(', ')}`)
  } finally {
    await browser.close()
  }
} catch (err) {
  fail((err as Error).message)
} finally {
  await site.stop()
}
const left = Bun.spawnSync(['pgrep', '-af', `${dir ?? 'thirdparty-davical-'}|127.0.0.1:${port}`])
  .stdout.toString()
  .trim()
if (left) fail(`processes left: ${left}`)
if (!dir) fail('no postgres process was seen with the temp dir')
else if (existsSync(dir)) fail(`${dir} left behind`)
if (existsSync(conf)) fail(`${conf} left behind`)
const confs = readdirSync('/etc/davical').filter((f) => f.startsWith('davical-test-'))
if (confs.length) console.log(`(config files of other runs: ${confs.join(', ')})`)
console.log(
  process.exitCode ? 'SMOKE FAILED' : 'ok: davical started, seeded, read back, rendered, stopped cleanly',
)
