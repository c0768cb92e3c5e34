// Debian's DAViCal (a CalDAV/CardDAV server; its web admin is a PHP site of forms and tables) set
// up the way a small team would run its calendar server: a PostgreSQL of its own (a throwaway
// cluster made by initdb in a temp dir, served on a free loopback port and a socket in that dir),
// the database made by DAViCal's own dba/create-database.sh with a known admin password, and the
// htdocs served by PHP's built-in server on another free loopback port.
//
// DAViCal reads /etc/davical/<SERVER_NAME>-conf.php: PHP is given a prepended file that names this
// run's server "davical-test-127.0.0.1-<port>", so its config file is its own and is removed on
// stop(); the config sets the domain name back to 127.0.0.1. PHP's sessions (DAViCal keeps its
// form tokens there) go to the temp dir too.
//
// Seeding goes through the admin UI's own "Create Principal" form over HTTP (as a browser would
// post it, in a child Bun: samples and live inputs are synchronous); the readers read PostgreSQL
// with psql. Sign-ins live in DAViCal's `session` table: emptying it signs everyone out.
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export const DAVICAL_USER = 'admin'
export const DAVICAL_PASSWORD = 'Juniper-Ledger-5273'
const SHARE = '/usr/share/davical'
const HTDOCS = `${SHARE}/htdocs`
const DATABASE = 'davical'

export type PrincipalType = 'Person' | 'Resource' | 'Group'
const TYPE_IDS: Record<PrincipalType, number> = { Person: 1, Resource: 2, Group: 3 }

export interface StoredPrincipal {
  /** The "Principal ID" the admin UI shows (its lists' ID column). */
  principalId: number
  /** The account's own number (usr.user_no), which the UI does not show. */
  userNo: number
  username: string
  fullname: string
  /** The principal's display name (the lists' "Display Name"; the full name when created). */
  displayname: string
  email: string
  type: PrincipalType
  active: boolean
}

export interface NewPrincipal {
  username: string
  fullName: string
  email?: string
  password?: string
  /** Person (a user) unless given. */
  type?: PrincipalType
}

export interface Davical extends RunningApp {
  /** Every principal (users, resources, groups) as stored in DAViCal's database, by principal id. */
  principals(): StoredPrincipal[]
  /** The principals of type Person (user accounts). */
  users(): StoredPrincipal[]
  /** Whether the account signs in with this password (checked against its stored hash). */
  passwordMatches(username: string, password: string): boolean
  /** Adds principals through the admin UI's Create Principal form; returns their principal ids. */
  addUsers(principals: NewPrincipal[]): number[]
  /** Signed-in sessions DAViCal holds (rows of its session table). */
  sessionCount(): number
}

/** Signs in as the admin and posts the Create Principal form once per principal, as a browser would. */
const SEED_SCRIPT = `
const [base, user, password, principals] = process.argv.slice(-4)
const jar = new Map()
const send = async (path, init = {}) => {
  const cookie = [...jar].map(([k, v]) => k + '=' + v).join('; ')
  const res = await fetch(new URL(path, base), { ...init, redirect: 'manual', headers: { cookie } })
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(';')[0]
    const at = pair.indexOf('=')
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
  }
  return res.text()
}
await send('/index.php', { method: 'POST', body: new URLSearchParams({ username: user, password, submit: 'GO!' }) })
if (!jar.has('sid')) throw new Error('the admin could not sign in')
const form = '/admin.php?action=edit&t=principal'
for (const p of JSON.parse(principals)) {
  const token = /name="csrf_token" value="([^"]+)"/.exec(await send(form))?.[1]
  if (!token) throw new Error('no csrf_token on the Create Principal form')
  const body = new FormData()
  const fields = [
    ['xxxxusername', p.username], ['newpass1', p.password], ['newpass2', p.password],
    ['fullname', p.fullname], ['email', p.email], ['locale', ''], ['date_format_type', 'E'],
    ['type_id', String(p.typeId)], ['is_admin', 'off'], ['user_active', 'off'], ['user_active', 'on'],
    ['default_privileges[fake_privilege_for_input]', '0'],
    ...['read-free-busy', 'schedule-deliver-invite', 'schedule-deliver-reply', 'schedule-query-freebusy']
      .map((k) => ['default_privileges[' + k + ']', 'on']),
    ['_editor_action[editor_1]', 'insert'], ['submit', 'Create'], ['csrf_token', token],
  ]
  for (const [k, v] of fields) body.append(k, v)
  const out = await send(form, { method: 'POST', body })
  if (!out.includes('Creating new Principal record'))
    throw new Error('creating ' + p.username + ' failed: ' + out.replace(/<[^>]*>/g, ' ').replace(/\\s+/g, ' ').slice(0, 600))
}
await send('/index.php?logout')
`

function postgresBin(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (!versions.length) throw new Error('davical: no /usr/lib/postgresql/*/bin/initdb')
  return `/usr/lib/postgresql/${versions[0]}/bin`
}

/** Stops a process started with setsid (its own group): TERM-like signal, then KILL if it lingers. */
async function stopGroup(proc: Bun.Subprocess, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(-proc.pid, signal)
  } catch {}
  const ended = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)])
  if (!ended) {
    try {
      process.kill(-proc.pid, 'SIGKILL')
    } catch {}
    await proc.exited
  }
}

export async function startDavical(): Promise<Davical> {
  await ensureDebianPackage(`${HTDOCS}/index.php`, 'davical')
  await ensureDebianPackage('/usr/share/doc/postgresql/copyright', 'postgresql')
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  const bin = postgresBin()
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-davical-'))
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })]
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step()
  }
  try {
    // PostgreSQL will not run as root: as root, the cluster is the postgres user's.
    const asRoot = process.getuid?.() === 0
    const asPostgres = asRoot ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'] : []
    if (asRoot) {
      const uid = Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString())
      const gid = Number(Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString())
      chownSync(dir, uid, gid)
    }
    const data = join(dir, 'pg')
    const initdb = Bun.spawnSync(
      [...asPostgres, `${bin}/initdb`, '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8'],
      {
        cwd: dir,
        env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    if (initdb.exitCode !== 0)
      throw new Error(`davical: initdb failed: ${initdb.stderr.toString().slice(-1500)}`)
    const pgPort = await freePort()
    // Its own session (setsid, then setpriv: both exec in place), so the pid is the postmaster's.
    const postgres = Bun.spawn(
      [
        'setsid',
        ...asPostgres,
        `${bin}/postgres`,
        '-D',
        data,
        '-k',
        dir,
        '-h',
        '127.0.0.1',
        '-p',
        String(pgPort),
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'shared_buffers=16MB',
      ],
      { cwd: dir, stdout: 'ignore', stderr: Bun.file(join(dir, 'postgres.log')) },
    )
    // SIGINT is PostgreSQL's fast shutdown.
    cleanups.push(() => stopGroup(postgres, 'SIGINT'))
    const pgEnv = { ...process.env, PGHOST: dir, PGPORT: String(pgPort), PGUSER: 'postgres' }
    const deadline = Date.now() + 30_000
    // Polling a server that is starting: there is no event to wait on.
    while (Bun.spawnSync([`${bin}/pg_isready`, '-q', '-d', 'postgres'], { env: pgEnv }).exitCode !== 0) {
      if (postgres.exitCode !== null || Date.now() > deadline)
        throw new Error(`davical: PostgreSQL did not start (see ${dir}/postgres.log)`)
      await Bun.sleep(100)
    }

    // DAViCal's own script makes its roles and database, loads the schema and base data, and sets
    // the admin's password (stored "**<password>", which DAViCal accepts as given).
    const create = Bun.spawnSync([`${SHARE}/dba/create-database.sh`, DATABASE, DAVICAL_PASSWORD], {
      cwd: dir,
      env: { ...pgEnv, PATH: `${bin}:${process.env.PATH}`, TMPDIR: dir },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const created = `${create.stdout.toString()}${create.stderr.toString()}`
    if (create.exitCode !== 0 || /\bERROR\b/.test(created))
      throw new Error(`davical: create-database.sh failed: ${created.slice(-2000)}`)

    const psql = (sql: string): string => {
      const run = Bun.spawnSync(
        [`${bin}/psql`, '-XqAt', '-v', 'ON_ERROR_STOP=1', '-d', DATABASE, '-c', sql],
        { env: pgEnv, stdout: 'pipe', stderr: 'pipe' },
      )
      if (run.exitCode !== 0) throw new Error(`davical: psql failed: ${run.stderr.toString().slice(-1000)}`)
      return run.stdout.toString().trim()
    }

    const port = await freePort()
    const serverName = `davical-test-127.0.0.1-${port}`
    const conf = `/etc/davical/${serverName}-conf.php`
    writeFileSync(
      conf,
      [
        '<?php',
        `// A throwaway DAViCal for deskhook's builder bench (test/thirdparty/davical, ${dir}); removed on stop.`,
        `$c->pg_connect[] = 'host=127.0.0.1 port=${pgPort} dbname=${DATABASE} user=davical_app';`,
        "$c->domain_name = '127.0.0.1';",
        "$c->admin_email = 'calendars@example.net';",
        '',
      ].join('\n'),
    )
    cleanups.push(() => rmSync(conf, { force: true }))
    const prepend = join(dir, 'server-name.php')
    writeFileSync(prepend, `<?php $_SERVER['SERVER_NAME'] = '${serverName}';\n`)
    const phpSessions = join(dir, 'php-sessions')
    mkdirSync(phpSessions)
    const php = Bun.spawn(
      [
        'setsid',
        'php',
        '-d',
        `auto_prepend_file=${prepend}`,
        '-d',
        `session.save_path=${phpSessions}`,
        '-d',
        'display_errors=0',
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        HTDOCS,
      ],
      {
        cwd: HTDOCS,
        env: { ...process.env, PHP_CLI_SERVER_WORKERS: '3' },
        stdout: 'ignore',
        stderr: 'ignore',
      },
    )
    cleanups.push(() => stopGroup(php, 'SIGTERM'))
    const url = `http://127.0.0.1:${port}/`
    await waitUntilUp(url, 30_000)

    // DAViCal stores the form's text HTML-escaped ("Bob &amp; Co"): the readers give it as shown.
    const principals = (): StoredPrincipal[] =>
      (
        JSON.parse(
          psql(
            `SELECT COALESCE(json_agg(t ORDER BY t."principalId"), '[]') FROM (
             SELECT p.principal_id AS "principalId", u.user_no AS "userNo", u.username,
                    COALESCE(u.fullname, '') AS fullname, COALESCE(p.displayname, '') AS displayname,
                    COALESCE(u.email, '') AS email, t.principal_type_desc AS type, u.active
             FROM usr u JOIN principal p ON p.user_no = u.user_no
             JOIN principal_type t ON t.principal_type_id = p.type_id) t`,
          ),
        ) as StoredPrincipal[]
      ).map((p) => ({
        ...p,
        username: asShown(p.username),
        fullname: asShown(p.fullname),
        displayname: asShown(p.displayname),
        email: asShown(p.email),
      }))
    const passwords = (): Map<string, string> =>
      new Map(
        (
          JSON.parse(
            psql(`SELECT COALESCE(json_agg(json_build_array(username, password)), '[]') FROM usr`),
          ) as [string, string | null][]
        ).map(([u, p]) => [u, p ?? '']),
      )
    return {
      name: 'davical',
      url,
      principals,
      users: () => principals().filter((p) => p.type === 'Person'),
      passwordMatches: (username, password) => hashMatches(passwords().get(username) ?? '', password),
      addUsers(wanted) {
        const known = new Set(principals().map((p) => p.username))
        const fresh = wanted
          .filter((p) => !known.has(p.username))
          .map((p) => ({
            username: p.username,
            fullname: p.fullName,
            email: p.email ?? '',
            password: p.password ?? `Seed-${crypto.randomUUID()}`,
            typeId: TYPE_IDS[p.type ?? 'Person'],
          }))
        if (fresh.length) {
          const run = Bun.spawnSync(
            [process.execPath, '-e', SEED_SCRIPT, url, DAVICAL_USER, DAVICAL_PASSWORD, JSON.stringify(fresh)],
            { stdout: 'pipe', stderr: 'pipe' },
          )
          if (run.exitCode !== 0)
            throw new Error(`davical: seeding failed: ${run.stderr.toString().slice(-1500)}`)
        }
        const stored = principals()
        return wanted.map((w) => {
          const found = stored.find((p) => p.username === w.username)
          if (!found) throw new Error(`davical: ${w.username} was not stored`)
          return found.principalId
        })
      },
      sessionCount: () => Number(psql('SELECT COUNT(*) FROM session')),
      async clearSessions() {
        // DAViCal checks the sid cookie of every request against its session table: with the rows
        // gone the next page asks for the password again. PHP's own sessions (form tokens) go too.
        psql('DELETE FROM session')
        for (const f of readdirSync(phpSessions)) rmSync(join(phpSessions, f), { force: true })
      },
      stop: cleanup,
    }
  } catch (err) {
    await cleanup()
    throw err
  }
}

/** The text htmlspecialchars escaped, as the page shows it. */
function asShown(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** AWL's session_validate_password: "**<plain>" as given, or a salted SHA-1 "*<salt>*{SSHA}<base64>". */
function hashMatches(stored: string, password: string): boolean {
  if (stored.startsWith('**')) return stored === `**${password}`
  const m = /^\*([^*]+)\*\{SSHA\}(.+)$/.exec(stored)
  if (!m) return false
  const salt = m[1]!
  const digest = new Bun.CryptoHasher('sha1').update(password + salt).digest('base64')
  const expected = Buffer.concat([Buffer.from(digest, 'base64'), Buffer.from(salt)]).toString('base64')
  return expected === m[2]
}
