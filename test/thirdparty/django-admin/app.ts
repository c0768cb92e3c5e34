// A stock Django admin site (Debian's python3-django) for a small company's inventory and staff:
// the tiny project in ./project (models Item and StaffMember, registered with the admin as a
// developer would) copied into a temp dir, migrated into its own SQLite file, one superuser with a
// known password, served by `manage.py runserver --insecure` (DEBUG off; --insecure serves the
// admin's CSS) on a free loopback port. Seeding goes through Django's ORM (`manage.py shell`),
// the readers read its SQLite file (read-only).
import { Database } from 'bun:sqlite'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export const DJANGO_USER = 'manager'
export const DJANGO_PASSWORD = 'Copper-Lantern-7305'
const PYTHON = '/usr/bin/python3'

export interface StoredItem {
  id: number
  sku: string
  name: string
  quantity: number
  location: string
}
export interface StoredStaff {
  id: number
  name: string
  email: string
  department: string
}

export interface DjangoAdmin extends RunningApp {
  items(): StoredItem[]
  staff(): StoredStaff[]
  /** Adds items through Django's ORM; returns their ids. */
  addItems(items: Omit<StoredItem, 'id'>[]): number[]
  /** Adds staff members through Django's ORM; returns their ids. */
  addStaff(staff: Omit<StoredStaff, 'id'>[]): number[]
  /** The site's user accounts (Django's auth_user): who may sign in, and whether as staff. */
  users(): { username: string; isStaff: boolean }[]
  /** Whether Django's own authenticate() accepts this username and password. */
  canSignIn(username: string, password: string): boolean
  /** Signed-in sessions Django holds (rows of django_session). */
  sessionCount(): number
}

export async function startDjangoAdmin(): Promise<DjangoAdmin> {
  await ensureDebianPackage(PYTHON, 'python3')
  await ensureDebianPackage('/usr/lib/python3/dist-packages/django/__init__.py', 'python3-django')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-django-admin-'))
  try {
    const project = join(dir, 'project')
    cpSync(join(import.meta.dir, 'project'), project, {
      recursive: true,
      filter: (src) => !src.includes('__pycache__'),
    })
    const db = join(dir, 'inventory.sqlite3')
    const env: Record<string, string | undefined> = {
      ...process.env,
      INVENTORY_DB: db,
      INVENTORY_SECRET_KEY: crypto.randomUUID() + crypto.randomUUID(),
      DJANGO_SETTINGS_MODULE: 'inventory_site.settings',
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONPATH: project,
      HOME: dir,
    }
    const manage = (args: string[], stdin?: string) => {
      const run = Bun.spawnSync([PYTHON, 'manage.py', ...args], {
        cwd: project,
        env,
        stdin: stdin === undefined ? 'ignore' : new Blob([stdin]),
        stdout: 'pipe',
        stderr: 'pipe',
      })
      if (run.exitCode !== 0)
        throw new Error(`django: manage.py ${args[0]} failed: ${run.stderr.toString().slice(-2000)}`)
      return run.stdout.toString()
    }
    manage(['migrate', '--noinput', '-v0'])
    manage(
      [
        'shell',
        '-c',
        'import os,sys; from django.contrib.auth.models import User; User.objects.create_superuser(sys.stdin.readline().strip(), "manager@example.com", sys.stdin.readline().strip())',
      ],
      `${DJANGO_USER}\n${DJANGO_PASSWORD}\n`,
    )

    const port = await freePort()
    // Its own session (setsid): stop() ends runserver and anything it started, as one group.
    const server = Bun.spawn(
      ['setsid', PYTHON, 'manage.py', 'runserver', '--noreload', '--insecure', `127.0.0.1:${port}`],
      { cwd: project, env, stdout: 'ignore', stderr: 'ignore' },
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
    const url = `http://127.0.0.1:${port}/admin/`
    try {
      await waitUntilUp(`${url}login/`, 30_000)
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
    const create = (model: 'Item' | 'StaffMember', rows: object[]): number[] => {
      const out = manage(
        [
          'shell',
          '-c',
          `import json,sys; from inventory.models import ${model}; print("ids=" + ",".join(str(${model}.objects.create(**r).id) for r in json.load(sys.stdin)))`,
        ],
        JSON.stringify(rows),
      )
      const ids = /ids=([\d,]+)/.exec(out)?.[1]
      if (!ids) throw new Error(`django: creating ${model} printed no ids: ${out}`)
      return ids.split(',').map(Number)
    }
    return {
      name: 'django-admin',
      url,
      items: () =>
        withDb(true, (d) =>
          d.query('SELECT id, sku, name, quantity, location FROM inventory_item ORDER BY id').all(),
        ) as StoredItem[],
      staff: () =>
        withDb(true, (d) =>
          d.query('SELECT id, name, email, department FROM inventory_staffmember ORDER BY id').all(),
        ) as StoredStaff[],
      addItems: (items) => create('Item', items),
      addStaff: (staff) => create('StaffMember', staff),
      users: () =>
        (
          withDb(true, (d) => d.query('SELECT username, is_staff FROM auth_user ORDER BY id').all()) as {
            username: string
            is_staff: number
          }[]
        ).map((u) => ({ username: u.username, isStaff: u.is_staff === 1 })),
      canSignIn: (username, password) =>
        manage(
          [
            'shell',
            '-c',
            'import json,sys; from django.contrib.auth import authenticate; a = json.load(sys.stdin); print("ok=" + str(authenticate(username=a[0], password=a[1]) is not None))',
          ],
          JSON.stringify([username, password]),
        ).includes('ok=True'),
      sessionCount: () =>
        withDb(true, (d) => (d.query('SELECT COUNT(*) AS n FROM django_session').get() as { n: number }).n),
      async clearSessions() {
        // Sessions live in the database (SESSION_ENGINE db): emptying the table signs everyone out.
        withDb(false, (d) => d.exec('DELETE FROM django_session'))
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
