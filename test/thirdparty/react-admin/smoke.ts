// `bun test/thirdparty/react-admin/smoke.ts`: the starter works without the builder — the back
// office starts, serves its page and bundle, takes seeded customers and orders over the REST API,
// they read back from db.json, headless Chromium renders them in react-admin's lists (asking no
// host but the app's own), and stop() leaves no process and no temp dir behind.
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { app } from './index.ts'

const t0 = performance.now()
const admin = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${admin.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
const dir = /thirdparty-react-admin-[^/\s]+/.exec(
  Bun.spawnSync(['pgrep', '-af', 'thirdparty-react-admin-']).stdout.toString(),
)?.[0]
try {
  const page = await (await fetch(admin.url)).text()
  if (!page.includes('<div id="root">') || !page.includes('/admin.js')) fail('the app page is not served')
  const bundle = await fetch(new URL('/admin.js', admin.url))
  const js = await bundle.text()
  if (bundle.status !== 200 || js.length < 100_000)
    fail(`the bundle answered ${bundle.status} (${js.length} characters)`)
  const [ada, bob] = admin.addCustomers([
    { name: 'Smoke Ada', email: 'ada@smoke.example', phone: '+44 20 7946 0001', city: 'London' },
    { name: 'Smoke Bob', email: 'bob@smoke.example', phone: '+44 20 7946 0002', city: 'Leeds' },
  ])
  const [order] = admin.addOrders([
    { reference: 'SMOKE-1', customerId: bob!, total: 42.5, status: 'shipped' },
  ])
  console.log('seeded', { ada, bob, order })
  const stored = admin.customers().find((c) => c.id === ada)
  if (stored?.email !== 'ada@smoke.example' || stored.city !== 'London')
    fail(`db.json has ${JSON.stringify(admin.customers())}`)
  if (admin.orders()[0]?.reference !== 'SMOKE-1' || admin.orders()[0]?.customerId !== bob)
    fail(`db.json has ${JSON.stringify(admin.orders())}`)
  const api = await fetch(new URL('/api/customers?_start=0&_end=10&q=leeds', admin.url))
  const found = (await api.json()) as { name: string }[]
  if (api.headers.get('x-total-count') !== '1' || found[0]?.name !== 'Smoke Bob')
    fail(`the REST search answered ${api.headers.get('x-total-count')}: ${JSON.stringify(found)}`)

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const elsewhere: string[] = []
    tab.on('request', (r) => {
      if (!r.url().startsWith(admin.url) && !r.url().startsWith('data:')) elsewhere.push(r.url())
    })
    const errors: string[] = []
    tab.on('pageerror', (e) => errors.push(e.message))
    await tab.goto(admin.url)
    await tab.getByRole('cell', { name: 'Smoke Bob' }).waitFor({ timeout: 20_000 })
    const customers = (await tab.locator('table td').allTextContents()).join(' | ')
    console.log(`customers list: ${customers}`)
    if (!customers.includes('ada@smoke.example') || !customers.includes('Leeds'))
      fail('the customer list lacks the seeded customers')
    await tab.getByRole('menuitem', { name: 'Orders' }).click()
    await tab.getByRole('cell', { name: 'SMOKE-1' }).waitFor({ timeout: 20_000 })
    const orders = (await tab.locator('table td').allTextContents()).join(' | ')
    console.log(`orders list: ${orders}`)
    // The order's customer shows by name (a reference to the customers) and its status by label.
    if (!orders.includes('Smoke Bob') || !orders.includes('Shipped'))
      fail('the order list lacks the seeded order')
    if (errors.length) fail(`page errors: ${errors.join('; ')}`)
    if (elsewhere.length) fail(`the page asked other hosts: ${elsewhere.join(', ')}`)
  } finally {
    await browser.close()
  }
} catch (err) {
  fail((err as Error).message)
} finally {
  await admin.stop()
}
const left = Bun.spawnSync(['pgrep', '-af', dir ?? 'thirdparty-react-admin-'])
  .stdout.toString()
  .trim()
if (left) fail(`processes left: ${left}`)
if (!dir) fail('no json-server process was seen with the temp dir')
else if (existsSync(join(tmpdir(), dir))) fail(`${dir} left behind`)
console.log(
  process.exitCode ? 'SMOKE FAILED' : 'ok: react-admin started, seeded, read back, rendered, stopped cleanly',
)
