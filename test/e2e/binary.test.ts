import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eventually } from '../helpers/cli.ts'
import { launchBrowser } from '../helpers/dashboard.ts'
import { rawRequest } from '../helpers/raw-http.ts'
import { tempDir } from '../helpers/temp-dir.ts'

/** The compiled single binary, run the way an admin runs it: migrations embedded, no source tree. */
const work = tempDir('deskhook-binary-')
const binary = join(work.path, 'deskhook')
const dataDir = join(work.path, 'data')

beforeAll(async () => {
  const build = Bun.spawn([process.execPath, 'scripts/build.ts', '--outfile', binary], {
    cwd: join(import.meta.dir, '../..'),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if ((await build.exited) !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`)
}, 120_000)
afterAll(() => work.remove())

async function runBinary(args: string[]) {
  const p = Bun.spawn([binary, ...args], { stdout: 'pipe', stderr: 'pipe', cwd: work.path })
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ])
  return { stdout, stderr, code }
}

test('the compiled binary serves, teaches, lists, documents and stops cleanly', async () => {
  const server = Bun.spawn(
    [binary, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir, '--log-format', 'json'],
    {
      stdout: 'pipe',
      stderr: 'pipe',
      cwd: work.path,
    },
  )
  // Read stdout until the listening line: the first-start key banner comes before it.
  const reader = server.stdout.getReader()
  let out = ''
  let url = ''
  while (!url) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`server exited early: ${out}${await new Response(server.stderr).text()}`)
    out += new TextDecoder().decode(value)
    url = /"msg":"deskhook listening"/.test(out) ? (/"url":"([^"]+)"/.exec(out)?.[1] ?? '') : ''
  }
  const initialKey = /(dh_[0-9A-Za-z]{49})/.exec(out)?.[1]
  expect(initialKey).toBeDefined()
  expect(out).toContain('"migrations":["0000_init"')

  const created = await runBinary(['keys', 'create', '--name', 'smoke', '--json', '--data', dataDir])
  expect(created.code).toBe(0)
  const key = JSON.parse(created.stdout).key as string
  const headers = { 'x-api-key': key, 'content-type': 'application/json' }

  const teach = await fetch(`${url}/customers`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      deskhook: { teach: true, prompt: 'Create a customer and return its id' },
      email: 'a@example.com',
    }),
  })
  expect(teach.status).toBe(202)
  const jobs = await (await fetch(`${url}/_jobs`, { headers })).json()
  expect(jobs.jobs).toMatchObject([{ method: 'POST', path: '/customers', mode: 'learning' }])
  const swagger = await (await fetch(`${url}/swagger.json`)).json()
  expect(swagger.paths['/customers'].post.summary).toBe('Create a customer and return its id')
  // Issue 9 item 2: no development error page from the binary either.
  const badHost = await rawRequest(url, 'GET /_health HTTP/1.1\r\nHost: [::\r\nConnection: close')
  expect(badHost.status).toBe(400)
  expect(JSON.parse(badHost.body).error.code).toBe('INVALID_REQUEST')
  expect(badHost.body).not.toMatch(/<html|stack/i)
  const listed = await runBinary(['jobs', 'list', '--data', dataDir])
  expect(listed.stdout).toMatch(/POST\s+\/customers\s+learning/)

  // The same binary is the agent: enroll it with a one-time token and see it online.
  const token = JSON.parse((await runBinary(['desktops', 'token', '--json', '--data', dataDir])).stdout)
    .token as string
  expect(token).toMatch(/^dhe_/)
  const agent = Bun.spawn(
    [
      binary,
      'agent',
      '--server',
      url,
      '--token',
      token,
      '--name',
      'smoke-desktop',
      '--state-dir',
      join(work.path, 'agent'),
    ],
    { stdout: 'ignore', stderr: 'pipe', cwd: work.path },
  )
  const online = await eventually(async () => {
    const list = await (await fetch(`${url}/_desktops`, { headers })).json()
    return list.desktops.find(
      (d: { name: string; status: string }) => d.name === 'smoke-desktop' && d.status === 'online',
    )
  }, 20_000)
  expect(online).toMatchObject({ platform: 'linux', driver: 'browser' })

  // The dashboard is in the binary too: its assets are embedded (no source tree beside it).
  while (!/\/_\/setup\?token=/.test(out)) {
    const { value, done } = await reader.read()
    if (done) break
    out += new TextDecoder().decode(value)
  }
  const setupUrl = /(http:\/\/\S+\/_\/setup\?token=[\w-]+)/.exec(out)?.[1]
  expect(setupUrl).toBeDefined()
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    await page.goto(setupUrl!)
    await page.getByLabel('Workspace name').fill('Smoke')
    await page.getByLabel('Your email').fill('it@example.com')
    await page.getByLabel(/^Password/).fill('binary-smoke-password')
    await page.getByRole('button', { name: 'Create the workspace' }).click()
    await page.getByRole('heading', { name: 'Jobs' }).waitFor()
    expect(await page.getByText(`${url}/customers`).count()).toBeGreaterThan(0)
    // The embedded stylesheet applied (the header's colour comes from it).
    expect(await page.locator('header.top').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(20, 37, 61)',
    )
    await page.goto(`${url}/_/desktops`)
    await page.getByText('smoke-desktop').first().waitFor()
  } finally {
    await browser.close()
  }

  agent.kill('SIGTERM')
  expect(await agent.exited).toBe(0)

  server.kill('SIGTERM')
  expect(await server.exited).toBe(0)
  // Logs never carry keys.
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    out += new TextDecoder().decode(value)
  }
  expect(out).toContain('"msg":"stopped"')
  expect(out.replace(initialKey!, '')).not.toContain(key)
}, 90_000)
