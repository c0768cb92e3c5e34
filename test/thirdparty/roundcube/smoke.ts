// `bun test/thirdparty/roundcube/smoke.ts`: starts the webmail, signs in over HTTP with the job's
// credentials, finds the seeded mail through Roundcube's own search, delivers one more message and
// finds it too, clears the sessions and proves the old session is gone, then stops and checks that
// no process it started is left.
import { ROUNDCUBE_PASSWORD, ROUNDCUBE_USER, startRoundcube } from './app.ts'

const jar = new Map<string, string>()
const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
async function get(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: cookies() },
  })
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';')
    const [k, v] = pair!.split('=')
    if (v === undefined || v === '' || v === '-del-' || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(k!)
    else jar.set(k!, v)
  }
  return res
}
function ok(cond: unknown, what: string): void {
  if (!cond) throw new Error(`FAILED: ${what}`)
  console.log(`ok - ${what}`)
}

const app = await startRoundcube()
const pids = () =>
  Bun.spawnSync(['ps', '-eo', 'pid,args'])
    .stdout.toString()
    .split('\n')
    .filter((l) => l.includes(app.url.split(':')[2]!.replace('/', '')) || l.includes(String(app.imapPort)))
try {
  ok(app.messages().length === 7, `the inbox holds the 7 seeded messages (${app.messages().length})`)
  const loginPage = await (await get(`${app.url}?_task=login`)).text()
  const token = /name="_token" value="([^"]+)"/.exec(loginPage)?.[1]
  ok(token, 'the sign-in page has its request token')
  const bad = await get(`${app.url}?_task=login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _token: token!,
      _task: 'login',
      _action: 'login',
      _timezone: 'UTC',
      _url: '',
      _user: ROUNDCUBE_USER,
      _pass: 'wrong-password',
    }),
  })
  ok(bad.status !== 302, `a wrong password does not sign in (HTTP ${bad.status})`)
  const token2 = /name="_token" value="([^"]+)"/.exec(await bad.text())?.[1] ?? token!
  const login = await get(`${app.url}?_task=login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _token: token2,
      _task: 'login',
      _action: 'login',
      _timezone: 'UTC',
      _url: '',
      _user: ROUNDCUBE_USER,
      _pass: ROUNDCUBE_PASSWORD,
    }),
  })
  ok(
    login.status === 302 && /_task=mail/.test(login.headers.get('location') ?? ''),
    'the credentials sign in',
  )
  const mailPage = await (await get(`${app.url}?_task=mail&_mbox=INBOX`)).text()
  const reqToken = /"request_token":"([^"]+)"/.exec(mailPage)?.[1]
  ok(reqToken && !mailPage.includes('id="rcmloginuser"'), 'the inbox opens signed in')
  ok(app.sessions().length >= 1, `roundcube stored the session (${app.sessions().length} rows)`)

  const search = async (q: string) => {
    const res = await get(
      `${app.url}?_task=mail&_action=search&_q=${encodeURIComponent(q)}&_mbox=INBOX&_headers=subject,from&_filter=ALL&_scope=base&_remote=1`,
      { headers: { 'x-roundcube-request': reqToken! } },
    )
    return res.text()
  }
  const found = await search('invoice')
  ok(
    found.includes('Invoice 2291 for February deliveries') &&
      found.includes('Overdue invoice reminder') &&
      !found.includes('Team lunch'),
    'roundcube search finds the seeded invoice mail',
  )
  app.addMessage({
    from: 'Paul Richter <paul@richter-catering.example>',
    subject: 'Catering quote for the spring party',
    date: new Date('2025-03-14T12:00:00Z'),
    body: 'Our quote for 40 guests is attached.',
  })
  ok(
    app.messages().some((m) => m.subject.startsWith('Catering quote')),
    'the reader sees the delivered message',
  )
  ok((await search('catering')).includes('Catering quote for the spring party'), 'roundcube finds it too')

  await app.clearSessions()
  ok(app.sessions().length === 0, 'the session table is empty')
  const after = await get(`${app.url}?_task=mail&_mbox=INBOX`)
  const afterText = after.status === 302 ? '' : await after.text()
  ok(
    after.status === 302 || afterText.includes('id="rcmloginuser"'),
    `the old session no longer opens the inbox (HTTP ${after.status})`,
  )
  const afterSearch = await search('invoice')
  ok(!afterSearch.includes('Invoice 2291'), 'the old session no longer searches mail')
} finally {
  await app.stop()
}
await Bun.sleep(300)
const left = pids().filter((l) => !l.includes('ps -eo'))
ok(left.length === 0, `no process left (${left.join(' / ')})`)
const dovecots = Bun.spawnSync(['pgrep', '-f', 'thirdparty-roundcube-']).stdout.toString().trim()
ok(dovecots === '', `no dovecot or php of this app left (${dovecots})`)
