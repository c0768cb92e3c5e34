// Debian's phpLiteAdmin (the admin UI of SQLite databases, behind a password screen), served by
// PHP's own server from a temp dir: its own config (password, database folder) and a seeded
// customers database, which the tests read back with bun:sqlite to see what a job really did.
import { Database } from 'bun:sqlite'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'
import { freePort, waitUntilUp } from './fossil.ts'
import { startPhpServer } from './php-server.ts'

export interface Customer {
  id: number
  name: string
  email: string
  city: string
  signup_date: string | null
}

export interface PhpLiteAdmin extends RunningApp {
  password: string
  customers(): Customer[]
  addCustomer(name: string, email: string, city: string, signupDate?: string): number
}

/** Customers the database holds before any job runs (a real table is never empty). */
const SEEDED: [name: string, email: string, city: string, signup: string][] = [
  ['Karl Benz', 'karl@example.com', 'Mannheim', '2026-01-12'],
  ['Lise Meitner', 'lise@example.com', 'Vienna', '2026-03-02'],
  ['Ada Yonath', 'yonath@example.com', 'Rehovot', '2026-05-30'],
]

export async function startPhpLiteAdmin(): Promise<PhpLiteAdmin> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage('/usr/share/phpliteadmin/phpliteadmin.php', 'phpliteadmin')
  await ensureDebianPackage('/usr/share/doc/php-sqlite3', 'php-sqlite3')
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-phpliteadmin-'))
  const www = join(dir, 'www')
  const data = join(dir, 'databases')
  mkdirSync(www)
  mkdirSync(data)
  symlinkSync('/usr/share/phpliteadmin/phpliteadmin.php', join(www, 'phpliteadmin.php'))
  const password = 'office-admin-pass'
  writeFileSync(
    join(www, 'phpliteadmin.config.php'),
    `<?php\n$password = '${password}';\n$directory = '${data}';\n$subdirectories = false;\n`,
  )
  const file = join(data, 'shop.sqlite')
  const db = new Database(file, { create: true })
  db.run(
    'CREATE TABLE customers (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL, city TEXT NOT NULL, signup_date DATE)',
  )
  const seed = db.query('INSERT INTO customers (name, email, city, signup_date) VALUES (?, ?, ?, ?)')
  for (const row of SEEDED) seed.run(...row)
  db.close()
  const port = await freePort()
  const server = startPhpServer(port, www, { cwd: www })
  const url = `http://127.0.0.1:${port}/phpliteadmin.php`
  try {
    await waitUntilUp(url)
  } catch (err) {
    await server.stop()
    throw err
  }
  const open = () => new Database(file)
  return {
    name: 'phpliteadmin',
    url,
    password,
    customers() {
      const c = open()
      try {
        return c
          .query('SELECT id, name, email, city, signup_date FROM customers ORDER BY id')
          .all() as Customer[]
      } finally {
        c.close()
      }
    },
    addCustomer(name, email, city, signupDate = '2026-06-01') {
      const c = open()
      try {
        return Number(
          c
            .query('INSERT INTO customers (name, email, city, signup_date) VALUES (?, ?, ?, ?)')
            .run(name, email, city, signupDate).lastInsertRowid,
        )
      } finally {
        c.close()
      }
    },
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
