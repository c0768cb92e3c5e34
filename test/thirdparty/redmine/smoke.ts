// `bun test/thirdparty/redmine/smoke.ts`: starts Redmine, signs in over HTTP with the jobs'
// credentials, seeds issues and reads them back, clears the sessions and shows the old cookie no
// longer works, then stops it and checks that none of its processes is left.
import { REDMINE_PASSWORD, REDMINE_USER } from './app.ts'
import { app } from './index.ts'

const t0 = performance.now()
const redmine = await app.start()
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${redmine.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
try {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, redmine.url), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookie() },
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const at = pair!.indexOf('=')
      jar.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return res
  }
  const anon = await call('/projects/website/issues')
  if (anon.status !== 302 || !anon.headers.get('location')?.includes('/login'))
    fail(`signed out, the issue list answered ${anon.status} ${anon.headers.get('location')}`)
  const form = await (await call('/login')).text()
  const token = /name="authenticity_token" value="([^"]+)"/.exec(form)?.[1]
  if (!token) throw new Error('no authenticity_token on the login page')
  const bad = await call('/login', {
    method: 'POST',
    body: new URLSearchParams({ authenticity_token: token, username: REDMINE_USER, password: 'wrong' }),
  })
  if (bad.status !== 200) fail(`a wrong password answered ${bad.status}, expected the form again`)
  const token2 = /name="authenticity_token" value="([^"]+)"/.exec(await bad.text())?.[1] ?? token
  const login = await call('/login', {
    method: 'POST',
    body: new URLSearchParams({
      authenticity_token: token2,
      username: REDMINE_USER,
      password: REDMINE_PASSWORD,
    }),
  })
  console.log(`sign-in: ${login.status} → ${login.headers.get('location')}`)
  if (login.status !== 302 || login.headers.get('location')?.includes('/login')) fail('sign-in failed')
  const ids = redmine.addIssues([
    { subject: 'Smoke: first issue', description: 'one' },
    { subject: 'Smoke: second issue', status: 'In Progress' },
  ])
  console.log('seeded', ids, redmine.issues())
  const page = await call(`/issues/${ids[1]}`)
  const html = await page.text()
  if (page.status !== 200 || !html.includes('Smoke: second issue') || !html.includes('In Progress'))
    fail(`signed in, issue ${ids[1]} answered ${page.status} without its subject/status`)
  const list = await (await call('/projects/website/issues')).text()
  if (!list.includes('Smoke: first issue')) fail('the issue list lacks the seeded issue')
  console.log(`sessions before clear: ${redmine.sessionCount()}`)
  await redmine.clearSessions?.()
  console.log(`sessions after clear: ${redmine.sessionCount()}`)
  const after = await call(`/issues/${ids[1]}`)
  if (after.status !== 302 || !after.headers.get('location')?.includes('/login'))
    fail(`after clearSessions the old cookie still works: ${after.status}`)
  else console.log('old session cookie no longer works (redirected to /login)')
} finally {
  await redmine.stop()
}
const port = new URL(redmine.url).port
const left = Bun.spawnSync(['ps', '-eo', 'pid,args'])
  .stdout.toString()
  .split('\n')
  .filter((l) => l.includes(`-p ${port}`))
if (left.length) fail(`processes left: ${left.join('\n')}`)
else console.log('no process left')
console.log(process.exitCode ? 'SMOKE FAILED' : 'SMOKE OK')
