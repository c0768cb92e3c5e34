// `bun test/thirdparty/request-tracker/smoke.ts`: the starter works without the builder — RT
// starts, asks for a sign-in, takes the jobs' credentials (and refuses a wrong password), seeds
// tickets that read back from its database and show on their pages, forgets its sessions on
// clearSessions(), and stop() leaves no process and no temp dir behind.
import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RT_PASSWORD, RT_USER } from './app.ts'
import { app } from './index.ts'

const ours = () => new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('thirdparty-request-tracker-')))
const before = ours()
const t0 = performance.now()
const rt = await app.start()
// The run's temp dir: the one that appeared with this start.
const dirs = [...ours()].filter((d) => !before.has(d))
console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${rt.url}`)
const fail = (why: string) => {
  console.error(`FAIL: ${why}`)
  process.exitCode = 1
}
const port = new URL(rt.url).port
try {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, rt.url), {
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
  const signedIn = (html: string) => html.includes('Logged in as <span class="current-user">')
  const loginForm = (html: string) => html.includes('id="login"') && html.includes('name="pass"')
  if (!loginForm(await (await call('/')).text())) fail('signed out, the home page is not the sign-in form')
  const bad = await call('/NoAuth/Login.html', {
    method: 'POST',
    body: new URLSearchParams({ user: RT_USER, pass: 'wrong' }),
  })
  await bad.text()
  if (signedIn(await (await call('/')).text())) fail('a wrong password signed in')
  const login = await call('/NoAuth/Login.html', {
    method: 'POST',
    body: new URLSearchParams({ user: RT_USER, pass: RT_PASSWORD }),
  })
  await login.text()
  const home = await (await call('/')).text()
  console.log(`sign-in: ${login.status}, then the home page is ${/<title>([^<]*)/.exec(home)?.[1]}`)
  if (!signedIn(home)) fail(`sign-in failed: ${home.slice(0, 300)}`)
  const ids = rt.addTickets([
    {
      queue: 'IT Support',
      subject: 'Smoke: printer jams',
      description: 'Jams on A4.\nSince Monday.',
      requestor: 'ana@example.com',
    },
    { queue: 'Facilities', subject: 'Smoke: heating off', status: 'open', owner: RT_USER },
  ])
  const stored = rt.tickets()
  console.log('seeded', ids, stored)
  const first = rt.ticket(ids[0]!)
  if (
    first?.subject !== 'Smoke: printer jams' ||
    first.queue !== 'IT Support' ||
    first.status !== 'new' ||
    first.owner !== 'Nobody' ||
    first.requestors.join() !== 'ana@example.com' ||
    first.description !== 'Jams on A4.\nSince Monday.'
  )
    fail(`ticket ${ids[0]} read back as ${JSON.stringify(first)}`)
  const second = rt.ticket(ids[1]!)
  if (second?.status !== 'open' || second.owner !== RT_USER || second.queue !== 'Facilities')
    fail(`ticket ${ids[1]} read back as ${JSON.stringify(second)}`)
  const page = await call(`/Ticket/Display.html?id=${ids[1]}`)
  const html = await page.text()
  if (page.status !== 200 || !html.includes('Smoke: heating off') || !html.includes('Facilities'))
    fail(`signed in, ticket ${ids[1]} answered ${page.status} without its subject/queue`)
  console.log(`sessions before clear: ${rt.sessionCount()}`)
  await rt.clearSessions?.()
  console.log(`sessions after clear: ${rt.sessionCount()}`)
  const again = await call(`/Ticket/Display.html?id=${ids[1]}`)
  const after = await again.text()
  const toLogin = again.status === 302 && again.headers.get('location')?.includes('/NoAuth/Login.html')
  if (signedIn(after) || !(toLogin || loginForm(after)))
    fail(
      `after clearSessions the old cookie still works: ${again.status} ${/<title>([^<]*)/.exec(after)?.[1]}`,
    )
  else console.log('old session cookie no longer works (the sign-in form again)')
} finally {
  await rt.stop()
}
const left = Bun.spawnSync(['ps', '-eo', 'pid,args'])
  .stdout.toString()
  .split('\n')
  .filter((l) => l.includes(`--port ${port}`))
if (left.length) fail(`processes left: ${left.join('\n')}`)
else console.log('no process left')
if (dirs.length !== 1) fail(`could not tell the run's temp dir: ${dirs.join(', ')}`)
else if (existsSync(join(tmpdir(), dirs[0]!))) fail(`${dirs[0]} left behind`)
else console.log(`temp dir ${dirs[0]} removed`)
console.log(process.exitCode ? 'SMOKE FAILED' : 'SMOKE OK')
