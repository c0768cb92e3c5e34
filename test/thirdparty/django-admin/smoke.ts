// `bun test/thirdparty/django-admin/smoke.ts`: starts the admin site, signs in over HTTP with the
// jobs' credentials, seeds items and staff and reads them back, clears the sessions and shows the
// old cookie no longer works, then stops it and checks that none of its processes is left.
import { DJANGO_PASSWORD, DJANGO_USER } from './app.ts'
import { app } from './index.ts'

const t0 = performance.now()
const site = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${site.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
try {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, site.url), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookie(), referer: site.url },
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const at = pair!.indexOf('=')
      jar.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return res
  }
  const list = '/admin/inventory/item/'
  const anon = await call(list)
  if (anon.status !== 302 || !anon.headers.get('location')?.includes('/login'))
    fail(`signed out, the item list answered ${anon.status} ${anon.headers.get('location')}`)
  const form = await (await call('/admin/login/')).text()
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form)?.[1]
  if (!token) throw new Error('no csrf token on the login page')
  const signIn = (password: string) =>
    call('/admin/login/?next=/admin/', {
      method: 'POST',
      body: new URLSearchParams({
        csrfmiddlewaretoken: token,
        username: DJANGO_USER,
        password,
        next: '/admin/',
      }),
    })
  const bad = await signIn('wrong')
  if (bad.status !== 200) fail(`a wrong password answered ${bad.status}, expected the form again`)
  const login = await signIn(DJANGO_PASSWORD)
  console.log(`sign-in: ${login.status} → ${login.headers.get('location')}`)
  if (login.status !== 302 || login.headers.get('location') !== '/admin/') fail('sign-in failed')
  const ids = site.addItems([
    { sku: 'SMOKE-1', name: 'Smoke test item', quantity: 3, location: 'Garage' },
    { sku: 'SMOKE-2', name: 'Other item', quantity: 5, location: 'Shelf A' },
  ])
  const staff = site.addStaff([
    { name: 'Grace Hopper', email: 'grace@example.com', department: 'Engineering' },
  ])
  console.log('seeded', ids, staff, site.items(), site.staff())
  const page = await call(`${list}?location=Garage`)
  const html = await page.text()
  if (page.status !== 200 || !html.includes('SMOKE-1') || html.includes('SMOKE-2'))
    fail(`signed in, the Garage list answered ${page.status} without SMOKE-1 (or with SMOKE-2)`)
  const css = await call('/static/admin/css/base.css')
  if (css.status !== 200) fail(`the admin's CSS answered ${css.status}`)
  console.log(`sessions before clear: ${site.sessionCount()}`)
  await site.clearSessions?.()
  console.log(`sessions after clear: ${site.sessionCount()}`)
  const after = await call(list)
  if (after.status !== 302 || !after.headers.get('location')?.includes('/login'))
    fail(`after clearSessions the old cookie still works: ${after.status}`)
  else console.log('old session cookie no longer works (redirected to the login page)')
} finally {
  await site.stop()
}
const port = new URL(site.url).port
const left = Bun.spawnSync(['ps', '-eo', 'pid,args'])
  .stdout.toString()
  .split('\n')
  .filter((l) => l.includes(`127.0.0.1:${port}`))
if (left.length) fail(`processes left: ${left.join('\n')}`)
else console.log('no process left')
console.log(process.exitCode ? 'SMOKE FAILED' : 'SMOKE OK')
