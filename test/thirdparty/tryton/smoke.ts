// `bun test/thirdparty/tryton/smoke.ts`: the starter works without the builder — trytond starts
// with the party module, takes seeded parties over JSON-RPC, they read back from its SQLite file,
// headless Chromium signs in to sao (user name, then password) and shows them in the party list
// (asking no host but the app's own), clearing the sessions makes sao ask for the password again,
// and stop() leaves no process and no temp dir behind.
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { TRYTON_PASSWORD, TRYTON_USER } from './app.ts'
import { app } from './index.ts'

const t0 = performance.now()
const site = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${site.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
const dir = /\/tmp\/thirdparty-tryton-[^/\s]+/.exec(
  Bun.spawnSync(['pgrep', '-af', 'trytond -c /tmp/thirdparty-tryton-']).stdout.toString(),
)?.[0]
try {
  const seeded = site.addParties([
    { name: 'Smoke Ada Ltd', email: 'ada@smoke.example', street: '1 Kings Road', city: 'Leeds' },
    { name: 'Smoke Bob & Co', email: 'bob@smoke.example', phone: '+44 113 496 0002', city: 'York' },
  ])
  console.log('seeded', seeded)
  if (!seeded.every((p) => /^C10\d\d$/.test(p.code))) fail(`codes are ${JSON.stringify(seeded)}`)
  const stored = site.parties()
  console.log('stored', stored)
  const bob = stored.find((p) => p.name === 'Smoke Bob & Co')
  if (bob?.email !== 'bob@smoke.example' || bob.city !== 'York' || bob.phone !== '+44 113 496 0002')
    fail(`the database has ${JSON.stringify(stored)}`)

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const elsewhere: string[] = []
    tab.on('request', (r) => {
      // sao draws its icons from blob: URLs of its own page.
      if (!r.url().startsWith(site.url) && !/^(data|blob):/.test(r.url())) elsewhere.push(r.url())
    })
    const errors: string[] = []
    tab.on('pageerror', (e) => errors.push(e.message))
    await tab.goto(site.url)
    await tab.getByRole('textbox', { name: 'User name' }).fill(TRYTON_USER)
    await tab.getByRole('button', { name: /login/i }).click()
    await tab.getByRole('textbox', { name: /^password for/i }).fill(TRYTON_PASSWORD)
    await tab.getByRole('button', { name: /^ok$/i }).click()
    await tab.getByRole('cell', { name: 'Party', exact: true }).click()
    await tab.getByRole('cell', { name: 'Parties', exact: true }).click()
    await tab.getByRole('cell', { name: 'Smoke Bob & Co' }).waitFor({ timeout: 20_000 })
    const rows = (await tab.locator('table td').allTextContents()).join(' | ')
    console.log(`party list: ${rows.replace(/\s+/g, ' ').slice(0, 400)}`)
    for (const p of seeded) if (!rows.includes(p.code)) fail(`the party list lacks code ${p.code}`)
    if (!rows.includes('Smoke Ada Ltd')) fail('the party list lacks Smoke Ada Ltd')
    // The module-configuration wizard was marked done: no tab of it opened.
    if (await tab.getByText('Module Configuration').count()) fail('the configuration wizard opened')
    console.log(`sessions after sign-in: ${site.sessionCount()}`)
    if (site.sessionCount() < 1) fail('trytond holds no session after the sign-in')
    await site.clearSessions?.()
    console.log(`sessions after clear: ${site.sessionCount()}`)
    await tab.getByRole('cell', { name: 'Addresses', exact: true }).click()
    await tab
      .getByRole('textbox', { name: /^password for/i })
      .waitFor({ timeout: 20_000 })
      .then(
        () => console.log('after clearSessions sao asks for the password again'),
        () => fail('after clearSessions sao did not ask for the password'),
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
const left = Bun.spawnSync(['pgrep', '-af', dir ?? 'trytond -c /tmp/thirdparty-tryton-'])
  .stdout.toString()
  .trim()
if (left) fail(`processes left: ${left}`)
if (!dir) fail('no trytond process was seen with the temp dir')
else if (existsSync(dir)) fail(`${dir} left behind`)
console.log(
  process.exitCode ? 'SMOKE FAILED' : 'ok: tryton started, seeded, read back, rendered, stopped cleanly',
)
