// Tryton (an ERP: Debian's tryton-server 6.0 with the party module) and its web client sao
// (Debian's tryton-sao), set up the way a small company would run its customer register: one
// database ("crm", SQLite, in a temp dir) with the party and country modules activated, the admin
// user with a known password, trytond serving sao and its JSON-RPC on a free loopback port. The
// first-run "Module Configuration" wizard is marked done (an owner went through it once), and
// sessions stay alive an hour of idleness (trytond's default is 5 minutes).
//
// Seeding goes through trytond's own JSON-RPC (model.party.party.create, as sao itself calls it);
// the readers read the SQLite file (read-only). Sessions live in the ir_session table: emptying it
// signs everyone out (sao then asks for the password again).
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export const TRYTON_USER = 'admin'
export const TRYTON_PASSWORD = 'Walnut-Harbor-6142'
export const TRYTON_DATABASE = 'crm'
const SAO_ROOT = '/usr/share/tryton-sao/www'
const MODULES = '/usr/lib/python3/dist-packages/trytond/modules'

export interface StoredParty {
  id: number
  /** The code Tryton gives a party from its sequence ("C1001", "C1002", …). */
  code: string
  name: string
  /** Its first e-mail contact mechanism, if any. */
  email?: string
  /** Its first phone contact mechanism, if any. */
  phone?: string
  /** The city of its first address, if any. */
  city?: string
  /** Every e-mail address the party has. */
  emails: string[]
}

export interface NewParty {
  name: string
  email?: string
  phone?: string
  street?: string
  postalCode?: string
  city?: string
}

export interface Tryton extends RunningApp {
  /** The parties as stored in Tryton's database, oldest first (active ones only). */
  parties(): StoredParty[]
  /** Adds parties through trytond's JSON-RPC (as sao would); returns their ids and codes. */
  addParties(parties: NewParty[]): { id: number; code: string }[]
  /** Signed-in sessions trytond holds (rows of ir_session). */
  sessionCount(): number
}

/** One JSON-RPC session, run synchronously in a child Bun (samples and live inputs are synchronous). */
const RPC_SCRIPT = `
const [base, user, password, calls] = process.argv.slice(-4)
const post = async (body, auth) => {
  const res = await fetch(base, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error('HTTP ' + res.status + ' ' + (await res.text()).slice(0, 500))
  const out = await res.json()
  if (out.error) throw new Error(JSON.stringify(out.error).slice(0, 1000))
  return out.result
}
const [uid, key] = await post({ id: 0, method: 'common.db.login', params: [user, { password }, 'en'] })
const auth = 'Session ' + Buffer.from(user + ':' + uid + ':' + key).toString('base64')
const results = []
for (const [i, [method, params]] of JSON.parse(calls).entries())
  results.push(await post({ id: i + 1, method, params }, auth))
await post({ id: 0, method: 'common.db.logout', params: [] }, auth)
console.log(JSON.stringify(results))
`

export async function startTryton(): Promise<Tryton> {
  await ensureDebianPackage('/usr/bin/trytond', 'tryton-server')
  await ensureDebianPackage(`${SAO_ROOT}/index.html`, 'tryton-sao')
  await ensureDebianPackage(`${MODULES}/country/__init__.py`, 'tryton-modules-country')
  await ensureDebianPackage(`${MODULES}/party/__init__.py`, 'tryton-modules-party')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-tryton-'))
  try {
    const port = await freePort()
    const conf = join(dir, 'trytond.conf')
    writeFileSync(
      conf,
      [
        '[database]',
        'uri = sqlite://',
        `path = ${dir}`,
        '[web]',
        `listen = 127.0.0.1:${port}`,
        `root = ${SAO_ROOT}`,
        '[session]',
        'timeout = 3600',
        '',
      ].join('\n'),
    )
    const passFile = join(dir, 'admin-password')
    writeFileSync(passFile, `${TRYTON_PASSWORD}\n`, { mode: 0o600 })
    // trytond's SQLite backend opens <path>/<name>.sqlite: the file must exist to be initialised.
    const db = join(dir, `${TRYTON_DATABASE}.sqlite`)
    writeFileSync(db, '')
    const env: Record<string, string | undefined> = {
      ...process.env,
      TRYTONPASSFILE: passFile,
      HOME: dir,
      PYTHONDONTWRITEBYTECODE: '1',
    }
    const admin = Bun.spawnSync(
      [
        'trytond-admin',
        '-c',
        conf,
        '-d',
        TRYTON_DATABASE,
        '-u',
        'party',
        '--activate-dependencies',
        '--email',
        'admin@example.com',
      ],
      { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' },
    )
    if (admin.exitCode !== 0)
      throw new Error(`tryton: trytond-admin failed: ${admin.stderr.toString().slice(-2000)}`)

    // Its own session (setsid): stop() ends trytond and anything it started, as one group.
    const server = Bun.spawn(['setsid', 'trytond', '-c', conf], {
      cwd: dir,
      env,
      stdout: 'ignore',
      stderr: 'ignore',
    })
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
    const rpcUrl = `${url}${TRYTON_DATABASE}/`
    const rpc = <T>(calls: [string, unknown[]][]): T[] => {
      const run = Bun.spawnSync(
        [process.execPath, '-e', RPC_SCRIPT, rpcUrl, TRYTON_USER, TRYTON_PASSWORD, JSON.stringify(calls)],
        { stdout: 'pipe', stderr: 'pipe' },
      )
      if (run.exitCode !== 0)
        throw new Error(`tryton: JSON-RPC failed: ${run.stderr.toString().slice(-1500)}`)
      return JSON.parse(run.stdout.toString()) as T[]
    }
    try {
      await waitUntilUp(url, 30_000)
      // The owner went through the first-run configuration wizard once: it no longer opens. Their
      // parties are numbered C1001, C1002, … (a prefix and a start of their choosing, so a code is
      // never a record's id).
      const [items, sequences] = rpc<number[]>([
        ['model.ir.module.config_wizard.item.search', [[], 0, null, null, {}]],
        ['model.ir.sequence.search', [[['name', '=', 'Party']], 0, null, null, {}]],
      ])
      if (sequences?.length !== 1) throw new Error(`tryton: ${sequences?.length} sequences named Party`)
      rpc([
        ['model.ir.module.config_wizard.item.write', [items, { state: 'done' }, {}]],
        ['model.ir.sequence.write', [sequences, { prefix: 'C', number_next: 1001 }, {}]],
      ])
    } catch (err) {
      await stopServer()
      throw err
    }
    const withDb = <T>(readonly: boolean, use: (d: Database) => T): T => {
      const d = new Database(db, readonly ? { readonly: true } : {})
      try {
        d.exec('PRAGMA busy_timeout = 10000')
        return use(d)
      } finally {
        d.close()
      }
    }
    return {
      name: 'tryton',
      url,
      parties: () =>
        withDb(true, (d) => {
          const rows = d
            .query(
              `SELECT p.id, p.code, p.name,
                 (SELECT a.city FROM party_address a WHERE a.party = p.id AND a.active
                    ORDER BY a.sequence IS NULL, a.sequence, a.id LIMIT 1) AS city
               FROM party_party p WHERE p.active ORDER BY p.id`,
            )
            .all() as { id: number; code: string; name: string; city: string | null }[]
          const mechanisms = d
            .query(
              `SELECT party, type, value FROM party_contact_mechanism WHERE active
               ORDER BY sequence IS NULL, sequence, id`,
            )
            .all() as { party: number; type: string; value: string }[]
          return rows.map((r) => {
            const own = mechanisms.filter((m) => m.party === r.id)
            const emails = own.filter((m) => m.type === 'email').map((m) => m.value)
            const phone = own.find((m) => m.type === 'phone' || m.type === 'mobile')?.value
            return {
              id: r.id,
              code: r.code,
              name: r.name,
              ...(emails[0] ? { email: emails[0] } : {}),
              ...(phone ? { phone } : {}),
              ...(r.city ? { city: r.city } : {}),
              emails,
            }
          })
        }),
      addParties: (parties) => {
        const values = parties.map((p) => {
          const mechanisms = [
            ...(p.email ? [{ type: 'email', value: p.email }] : []),
            ...(p.phone ? [{ type: 'phone', value: p.phone }] : []),
          ]
          const address =
            p.street || p.city || p.postalCode
              ? [{ street: p.street ?? '', city: p.city ?? '', postal_code: p.postalCode ?? '' }]
              : []
          return {
            name: p.name,
            ...(mechanisms.length ? { contact_mechanisms: [['create', mechanisms]] } : {}),
            // Without addresses Tryton gives a new party one empty address; with them, these.
            ...(address.length ? { addresses: [['create', address]] } : {}),
          }
        })
        const [ids] = rpc<number[]>([['model.party.party.create', [values, {}]]])
        const [read] = rpc<{ id: number; code: string }[]>([['model.party.party.read', [ids, ['code'], {}]]])
        const codes = new Map(read!.map((r) => [r.id, r.code]))
        return ids!.map((id) => ({ id, code: codes.get(id)! }))
      },
      sessionCount: () =>
        withDb(true, (d) => (d.query('SELECT COUNT(*) AS n FROM ir_session').get() as { n: number }).n),
      async clearSessions() {
        // trytond checks every call's session key against ir_session: with the rows gone, sao's
        // next call is refused (401) and it asks for the password again.
        withDb(false, (d) => d.exec('DELETE FROM ir_session'))
      },
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
