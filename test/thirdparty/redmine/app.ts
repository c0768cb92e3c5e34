// Debian's Redmine (an issue tracker on Rails) started the way an admin would run a private one:
// production mode, its own SQLite database, WEBrick on a free loopback port, sign-in required,
// one admin with a known password and one project ("Website") with issue tracking.
//
// Debian runs Redmine as "instances" under /usr/share/redmine/instances/<name>; the instance name
// is a relative path, so pointing it at a temp dir gives this run its own config, database, log and
// tmp without writing anywhere else. Migrations and the default data take a few seconds; the
// prepared database is still cached under /tmp/deskhook-thirdparty-cache (keyed by the package's
// version) so a start is a copy and a server boot. Seeding and the readers of its data go
// through Redmine's own code (`rails runner`) and its SQLite file (read-only).
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

const ROOT = '/usr/share/redmine'
export const REDMINE_USER = 'admin'
export const REDMINE_PASSWORD = 'Plum-Kettle-4821'
const CACHE = '/tmp/deskhook-thirdparty-cache'

export interface StoredIssue {
  id: number
  subject: string
  description: string
  status: string
  tracker: string
  project: string
}

export interface Redmine extends RunningApp {
  /** The issues as stored in Redmine's database, oldest first. */
  issues(): StoredIssue[]
  /** Files issues in the Website project through Redmine's own models; returns their numbers. */
  addIssues(issues: { subject: string; description?: string; status?: string }[]): number[]
  /** Number of signed-in sessions Redmine holds (its session tokens). */
  sessionCount(): number
}

export async function startRedmine(): Promise<Redmine> {
  await ensureDebianPackage(`${ROOT}/bin/rails`, 'redmine')
  await ensureDebianPackage('/usr/share/doc/redmine-sqlite/copyright', 'redmine-sqlite')
  await ensureDebianPackage('/usr/share/doc/ruby-webrick/copyright', 'ruby-webrick')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-redmine-'))
  try {
    for (const sub of ['config', 'tmp/cache', 'tmp/pids', 'log', 'files', 'public/plugin_assets'])
      mkdirSync(join(dir, sub), { recursive: true })
    const db = join(dir, 'redmine.sqlite3')
    writeFileSync(
      join(dir, 'config', 'database.yml'),
      `production:\n  adapter: sqlite3\n  database: ${db}\n  encoding: utf8\n  timeout: 10000\n`,
    )
    writeFileSync(join(dir, 'config', 'secret_key.txt'), randomHex(64))
    // Debian's Gemfile has no web server in it; WEBrick (Debian's ruby-webrick) is added here.
    writeFileSync(join(dir, 'Gemfile'), `eval_gemfile '${ROOT}/Gemfile'\ngem 'webrick'\n`)
    const env: Record<string, string | undefined> = {
      ...process.env,
      REDMINE_INSTANCE: `../../../..${dir}`,
      RAILS_ENV: 'production',
      BUNDLE_GEMFILE: join(dir, 'Gemfile'),
      RAILS_SERVE_STATIC_FILES: '1',
      REDMINE_LANG: 'en',
      HOME: dir,
    }
    const rails = (args: string[], extra: Record<string, string> = {}) => {
      const run = Bun.spawnSync(['bin/rails', ...args], {
        cwd: ROOT,
        env: { ...env, ...extra },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      if (run.exitCode !== 0)
        throw new Error(`redmine: rails ${args[0]} failed: ${run.stderr.toString().slice(-2000)}`)
      return run.stdout.toString()
    }
    prepareDatabase(db, rails)

    const port = await freePort()
    // Its own session (setsid): stop() ends the server and anything it forked, as one group.
    const server = Bun.spawn(
      [
        'setsid',
        'bin/rails',
        'server',
        '-u',
        'webrick',
        '-e',
        'production',
        '-b',
        '127.0.0.1',
        '-p',
        String(port),
        '-P',
        join(dir, 'tmp', 'pids', 'server.pid'),
      ],
      { cwd: ROOT, env, stdout: 'ignore', stderr: 'ignore' },
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
    try {
      await waitUntilUp(`${url}login`, 60_000)
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
      name: 'redmine',
      url,
      issues: () =>
        withDb(
          true,
          (d) =>
            d
              .query(
                `SELECT i.id, i.subject, COALESCE(i.description, '') AS description, s.name AS status,
                      t.name AS tracker, p.identifier AS project
               FROM issues i JOIN issue_statuses s ON s.id = i.status_id
               JOIN trackers t ON t.id = i.tracker_id JOIN projects p ON p.id = i.project_id
               ORDER BY i.id`,
              )
              .all() as StoredIssue[],
        ),
      addIssues(issues) {
        const out = rails(['runner', join(import.meta.dir, 'add-issues.rb')], {
          ISSUES_JSON: JSON.stringify(issues),
        })
        const ids = /ids=([\d,]+)/.exec(out)?.[1]
        if (!ids) throw new Error(`redmine: add-issues printed no ids: ${out}`)
        return ids.split(',').map(Number)
      },
      sessionCount: () =>
        withDb(true, (d) => {
          const row = d
            .query(`SELECT COUNT(*) AS n FROM tokens WHERE action IN ('session', 'autologin')`)
            .get() as { n: number }
          return row.n
        }),
      async clearSessions() {
        // Redmine's session cookie only names a session token (session[:tk]) that each request
        // checks against the tokens table (User.verify_session_token); deleting the tokens ends
        // every signed-in session, and "stay logged in" tokens go too.
        withDb(false, (d) => d.exec(`DELETE FROM tokens WHERE action IN ('session', 'autologin')`))
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

/** Migrated, default data (English), signed-in only, admin's password and the Website project. */
function prepareDatabase(
  db: string,
  rails: (args: string[], extra?: Record<string, string>) => string,
): void {
  // `dpkg-query -W redmine` prints "redmine<TAB>version".
  const version = Bun.spawnSync(['dpkg-query', '-W', 'redmine']).stdout.toString().trim().split('\t')[1]
  const cached = join(CACHE, `redmine-${version || 'unknown'}-v1.sqlite3`)
  if (!existsSync(cached)) {
    rails(['db:migrate'])
    rails(['redmine:load_default_data'])
    rails(['runner', join(import.meta.dir, 'setup.rb')], { REDMINE_ADMIN_PASSWORD: REDMINE_PASSWORD })
    mkdirSync(CACHE, { recursive: true })
    // Written aside and renamed: a concurrent start never copies a half-written file.
    const part = `${cached}.${process.pid}.part`
    copyFileSync(db, part)
    renameSync(part, cached)
    return
  }
  copyFileSync(cached, db)
}

function randomHex(chars: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(chars / 2))).toString('hex')
}
