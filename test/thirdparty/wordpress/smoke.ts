// `bun test/thirdparty/wordpress/smoke.ts`: starts the blog, signs in to wp-admin over HTTP with the
// job's credentials, adds posts without the UI and finds them in wp_posts and on the admin's Posts
// screen, clears the sessions and proves the old sign-in cookie no longer opens wp-admin, then stops
// and checks that no process it started (PHP, MariaDB) is left.
import { startWordPress, WP_PASSWORD, WP_USER } from './app.ts'

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
    const at = pair!.indexOf('=')
    const k = pair!.slice(0, at)
    const v = pair!.slice(at + 1)
    if (v === '' || v === 'deleted' || /expires=[^;]*19[79]\d/i.test(c)) jar.delete(k)
    else jar.set(k, v)
  }
  return res
}
function ok(cond: unknown, what: string): void {
  if (!cond) throw new Error(`FAILED: ${what}`)
  console.log(`ok - ${what}`)
}

const app = await startWordPress()
const origin = new URL(app.url).origin
const port = new URL(app.url).port
try {
  ok(
    app.posts().some((p) => p.title === 'Hello world!'),
    'WordPress installed (its first post is there)',
  )
  const signIn = (pwd: string) =>
    get(`${origin}/wp-login.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        log: WP_USER,
        pwd,
        'wp-submit': 'Log In',
        redirect_to: `${origin}/wp-admin/`,
        testcookie: '1',
      }),
    })
  await get(`${origin}/wp-login.php`)
  jar.set('wordpress_test_cookie', 'WP%20Cookie%20check')
  const bad = await signIn('wrong-password')
  ok(bad.status === 200 && (await bad.text()).includes('login_error'), 'a wrong password does not sign in')
  const good = await signIn(WP_PASSWORD)
  ok(
    good.status === 302 && (good.headers.get('location') ?? '').includes('/wp-admin/'),
    'the credentials sign in',
  )
  const dash = await get(`${origin}/wp-admin/`)
  ok(dash.status === 200 && (await dash.text()).includes('Dashboard'), 'wp-admin opens signed in')
  ok(app.sessionTokens().length === 1, 'WordPress stored the session token')

  const id = app.addPost('Spring opening hours', 'From April we open at 8 am.')
  app.addPost('Draft: summer party', 'Still planning.', 'draft')
  const stored = app.posts().find((p) => p.id === id)
  ok(
    stored?.status === 'publish' && stored.content.includes('open at 8 am'),
    `the seeded post is in wp_posts (${id})`,
  )
  const list = await (await get(`${origin}/wp-admin/edit.php`)).text()
  ok(
    list.includes('Spring opening hours') && list.includes('Draft: summer party'),
    'the Posts screen lists them',
  )
  const blog = await (await get(`${origin}/`)).text()
  ok(
    blog.includes('Spring opening hours') && !blog.includes('summer party'),
    'the blog shows the published one',
  )

  await app.clearSessions()
  ok(app.sessionTokens().length === 0, 'the session tokens are gone')
  const after = await get(`${origin}/wp-admin/`)
  ok(
    after.status === 302 && (after.headers.get('location') ?? '').includes('wp-login.php'),
    `the old cookie no longer opens wp-admin (HTTP ${after.status} → ${after.headers.get('location')})`,
  )
} finally {
  await app.stop()
}
await Bun.sleep(300)
const left = Bun.spawnSync(['ps', '-eo', 'pid,args'])
  .stdout.toString()
  .split('\n')
  .filter(
    (l) =>
      l.includes(`127.0.0.1:${port}`) ||
      l.includes('thirdparty-wordpress-') ||
      l.includes('thirdparty-mariadb-'),
  )
  .filter((l) => !l.includes('ps -eo'))
ok(left.length === 0, `no process left (${left.join(' / ')})`)
