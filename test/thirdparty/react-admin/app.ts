// A react-admin back office (npm `react-admin` with Material UI, pinned) for a small company's
// customers and orders, on json-server (npm, pinned) as its REST backend through
// `ra-data-json-server`, as react-admin's own tutorial sets it up. The packages are installed on
// demand into a cache dir (not the project's package.json); each start bundles ./admin.tsx with
// `bun build` into a temp dir, and json-server serves that bundle (`--static`) and the REST API
// under /api (`--routes`) on one free loopback port. Open (no sign-in). json-server keeps the data
// in the temp dir's db.json, rewritten on every change: the readers read that file, the seeding
// goes through the REST API.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

/** Exact versions: the app under test does not move between runs. */
export const PACKAGES = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-admin': '5.15.4',
  'ra-data-json-server': '5.15.3',
  'json-server': '0.17.4',
}
const CACHE = join(
  tmpdir(),
  'deskhook-thirdparty-cache',
  `react-admin-${PACKAGES['react-admin']}-json-server-${PACKAGES['json-server']}`,
)
const MODULES = join(CACHE, 'node_modules')
const JSON_SERVER = join(MODULES, 'json-server', 'lib', 'cli', 'bin.js')

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'cancelled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

export interface StoredCustomer {
  id: number
  name: string
  email: string
  phone?: string
  city?: string
}
export interface StoredOrder {
  id: number
  reference: string
  customerId: number
  total: number
  status: OrderStatus
}

export interface ReactAdmin extends RunningApp {
  /** The customers as json-server stores them in db.json. */
  customers(): StoredCustomer[]
  /** The orders as json-server stores them in db.json. */
  orders(): StoredOrder[]
  /** Adds customers through json-server's REST API (not the UI); returns their ids. */
  addCustomers(customers: Omit<StoredCustomer, 'id'>[]): number[]
  /** Adds orders through json-server's REST API (not the UI); returns their ids. */
  addOrders(orders: Omit<StoredOrder, 'id'>[]): number[]
}

/** Installs the pinned packages into a cache dir (not the project's package.json) when missing. */
export async function ensureReactAdmin(): Promise<string> {
  if (existsSync(JSON_SERVER) && existsSync(join(MODULES, 'react-admin', 'package.json'))) return MODULES
  await ensureDebianPackage('/usr/bin/node', 'nodejs')
  await ensureDebianPackage('/usr/bin/npm', 'npm')
  // Installed beside the cache and moved in whole, so a half-done install is never taken for one.
  const partial = `${CACHE}.partial-${process.pid}`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  const specs = Object.entries(PACKAGES).map(([name, version]) => `${name}@${version}`)
  const npm = Bun.spawn(['npm', 'install', '--prefix', partial, '--no-audit', '--no-fund', ...specs], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const why = await new Response(npm.stderr).text()
  if ((await npm.exited) !== 0) {
    rmSync(partial, { recursive: true, force: true })
    throw new Error(`npm could not install ${specs.join(' ')}: ${why.trim().slice(-300)}`)
  }
  try {
    renameSync(partial, CACHE)
  } catch {
    // Another run installed it meanwhile.
    rmSync(partial, { recursive: true, force: true })
  }
  if (!existsSync(JSON_SERVER))
    throw new Error(`react-admin's packages installed but ${JSON_SERVER} is missing`)
  return MODULES
}

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>Back office</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/admin.js"></script>
  </body>
</html>
`

export async function startReactAdmin(): Promise<ReactAdmin> {
  const modules = await ensureReactAdmin()
  const node = Bun.which('node') ?? '/usr/bin/node'
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-react-admin-'))
  try {
    // The entry is bundled beside the cached packages (a node_modules link), as in a real project.
    symlinkSync(modules, join(dir, 'node_modules'), 'dir')
    copyFileSync(join(import.meta.dir, 'admin.tsx'), join(dir, 'admin.tsx'))
    const pub = join(dir, 'public')
    const build = Bun.spawnSync(
      [process.execPath, 'build', join(dir, 'admin.tsx'), '--outdir', pub, '--production'],
      { cwd: dir, stdout: 'pipe', stderr: 'pipe' },
    )
    if (build.exitCode !== 0 || !existsSync(join(pub, 'admin.js')))
      throw new Error(`react-admin: bun build failed: ${build.stderr.toString().slice(-2000)}`)
    writeFileSync(join(pub, 'index.html'), INDEX_HTML)
    writeFileSync(join(dir, 'routes.json'), JSON.stringify({ '/api/*': '/$1' }))
    const db = join(dir, 'db.json')
    writeFileSync(db, JSON.stringify({ customers: [], orders: [] }, null, 2))

    const port = await freePort()
    // Its own session (setsid): stop() ends json-server and anything it started, as one group.
    const server = Bun.spawn(
      [
        'setsid',
        node,
        JSON_SERVER,
        db,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        // Relative to the working dir: json-server joins --static onto it, even an absolute path.
        '--static',
        'public',
        '--routes',
        join(dir, 'routes.json'),
        '--quiet',
      ],
      { cwd: dir, stdout: 'ignore', stderr: 'ignore' },
    )
    const stopServer = async () => {
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {}
      const ended = await Promise.race([server.exited.then(() => true), Bun.sleep(5000).then(() => false)])
      try {
        process.kill(-server.pid, 'SIGKILL')
      } catch {}
      if (!ended) await server.exited
    }
    const url = `http://127.0.0.1:${port}/`
    const api = `${url}api/`
    try {
      await waitUntilUp(`${api}customers`, 30_000)
    } catch (err) {
      await stopServer()
      throw err
    }
    const read = (): { customers: StoredCustomer[]; orders: StoredOrder[] } => {
      for (let tries = 0; ; tries++) {
        try {
          return JSON.parse(readFileSync(db, 'utf8'))
        } catch (err) {
          // json-server rewrites the whole file on each change: a read may catch it half written.
          if (tries >= 20) throw err
          Bun.sleepSync(50)
        }
      }
    }
    const post = (collection: string, records: object[]): number[] => {
      // Synchronous (samples and live inputs are made synchronously): a short Bun script POSTs.
      const script = `
        const [base, body] = process.argv.slice(-2)
        const ids = []
        for (const r of JSON.parse(body)) {
          const res = await fetch(base, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(r),
          })
          if (!res.ok) { console.error('HTTP ' + res.status + ' ' + (await res.text())); process.exit(1) }
          ids.push((await res.json()).id)
        }
        console.log(JSON.stringify(ids))`
      const run = Bun.spawnSync(
        [process.execPath, '-e', script, `${api}${collection}`, JSON.stringify(records)],
        {
          stdout: 'pipe',
          stderr: 'pipe',
        },
      )
      if (run.exitCode !== 0)
        throw new Error(`react-admin: POST ${collection} failed: ${run.stderr.toString()}`)
      return JSON.parse(run.stdout.toString()) as number[]
    }
    return {
      name: 'react-admin',
      url,
      customers: () => read().customers,
      orders: () => read().orders,
      addCustomers: (customers) => post('customers', customers),
      addOrders: (orders) => post('orders', orders),
      async stop() {
        await stopServer()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
}
