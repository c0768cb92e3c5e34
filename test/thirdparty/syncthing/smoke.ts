// `bun test/thirdparty/syncthing/smoke.ts`: the starter works without the builder — Syncthing
// starts on its throwaway home with nothing outward switched on, remote devices and folders seeded
// over the REST API read back, headless Chromium sees them in the GUI (a folder's panel unfolds to
// its path, a device's to the labels of the folders shared with it, the Add Folder dialog comes
// with a Folder ID filled in) asking no host but the app's own, and stop() leaves no process and
// no temp dir behind.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { app } from './index.ts'

const t0 = performance.now()
const st = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${st.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
const dir = join(st.dataDir, '..')
try {
  const port = Number(new URL(st.url).port)
  if (port < 18400 || port > 18499) fail(`the GUI is on port ${port}, not in 18400–18499`)
  const config = readFileSync(join(dir, 'home', 'config.xml'), 'utf8')
  for (const off of [
    '<globalAnnounceEnabled>false<',
    '<localAnnounceEnabled>false<',
    '<relaysEnabled>false<',
    '<natEnabled>false<',
    '<urAccepted>-1<',
    '<crashReportingEnabled>false<',
    '<autoUpgradeIntervalH>0<',
  ])
    if (!config.includes(off)) fail(`config.xml lacks ${off}`)
  if (!/<listenAddress>tcp:\/\/127\.0\.0\.1:\d+<\/listenAddress>/.test(config))
    fail('it listens beyond loopback')
  if (st.folders().length || st.devices().length) fail('the fresh config has folders or devices')

  const [nas, laptop] = st.addDevices(['Smoke NAS', 'Smoke Laptop'])
  const [photos, docs] = st.addFolders([
    { label: 'Smoke Photos', sharedWith: ['Smoke NAS'] },
    {
      label: 'Smoke Docs',
      id: 'smoke-docs',
      path: join(st.dataDir, 'docs'),
      sharedWith: ['Smoke NAS', 'Smoke Laptop'],
    },
  ])
  console.log('seeded', { nas, laptop, photos, docs })
  const devices = st.devices()
  if (devices.length !== 2 || devices.find((d) => d.id === nas)?.name !== 'Smoke NAS')
    fail(`devices read back as ${JSON.stringify(devices)}`)
  const folders = st.folders()
  const stored = folders.find((f) => f.label === 'Smoke Docs')
  if (
    stored?.id !== 'smoke-docs' ||
    stored.path !== join(st.dataDir, 'docs') ||
    !stored.devices.includes(laptop!)
  )
    fail(`folders read back as ${JSON.stringify(folders)}`)
  if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(photos ?? '')) fail(`the seeded folder id is ${photos}`)
  if (st.addFolders([{ label: 'Smoke Photos' }])[0] !== photos) fail('re-seeding differs')

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const elsewhere: string[] = []
    tab.on('request', (r) => {
      if (!r.url().startsWith(st.url) && !r.url().startsWith('data:')) elsewhere.push(r.url())
    })
    const errors: string[] = []
    tab.on('pageerror', (e) => errors.push(e.message))
    await tab.goto(st.url)
    const docsPanel = tab.getByRole('button', { name: /Smoke Docs$/ })
    await docsPanel.waitFor({ timeout: 20_000 })
    await docsPanel.click()
    const path = tab.getByRole('row', { name: /Folder Path/ }).getByRole('cell')
    await path.waitFor({ timeout: 10_000 })
    if ((await path.textContent())?.trim() !== join(st.dataDir, 'docs'))
      fail(`the folder's panel shows the path ${await path.textContent()}`)
    const shared = tab.getByRole('row', { name: /^\W*Folders\b/ }).getByRole('cell')
    // A panel clicked while the GUI is still wiring up its panels stays folded: clicked again then.
    for (let tries = 0; !(await shared.isVisible()); tries++) {
      if (tries === 5) throw new Error("the device's panel does not unfold")
      await tab.getByRole('button', { name: /Smoke NAS$/ }).click()
      await shared.waitFor({ timeout: 2_000 }).catch(() => undefined)
    }
    const labels = (await shared.textContent())?.trim() ?? ''
    console.log(`shared with Smoke NAS: ${labels}`)
    if (!labels.includes('Smoke Docs') || !labels.includes('Smoke Photos'))
      fail('the device panel lacks the folders shared with it')
    await tab.getByRole('button', { name: /Add Folder$/ }).click()
    const id = tab.getByRole('textbox', { name: 'Folder ID' })
    await id.waitFor({ timeout: 10_000 })
    const newId = await id.inputValue()
    console.log(`Add Folder offers the id ${newId}`)
    if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(newId)) fail(`the Add Folder dialog offers the id ${newId}`)
    if (errors.length) fail(`page errors: ${errors.join('; ')}`)
    if (elsewhere.length) fail(`the page asked other hosts: ${elsewhere.join(', ')}`)
  } finally {
    await browser.close()
  }
} catch (err) {
  fail((err as Error).message)
} finally {
  await st.stop()
}
const left = Bun.spawnSync(['pgrep', '-af', dir]).stdout.toString().trim()
if (left) fail(`processes left: ${left}`)
if (existsSync(dir)) fail(`${dir} left behind`)
console.log(
  process.exitCode ? 'SMOKE FAILED' : 'ok: syncthing started, seeded, read back, rendered, stopped cleanly',
)
