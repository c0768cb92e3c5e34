// Debian's Adminer Editor (Adminer's data-entry UI for end users: a shop back office here), on
// SQLite through the package's own `editor/sqlite.php` recipe (the password-less login plugin:
// one password, checked against a hash), served by PHP's own server from a temp copy of the
// package. Products point at categories by number (the editor shows a number box "category_id").
// The tests read the database file back with bun:sqlite.
import { Database } from 'bun:sqlite'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'
import { freePort, waitUntilUp } from './fossil.ts'
import { startPhpServer } from './php-server.ts'

export interface Product {
  id: number
  name: string
  sku: string
  price: number
  category: string | null
}

export interface AdminerEditor extends RunningApp {
  password: string
  products(): Product[]
  addProduct(name: string, sku: string, price: number, category: string): number
}

const CATEGORIES = ['Garden tools', 'Kitchen', 'Lighting', 'Office supplies']
const SEEDED: [name: string, sku: string, price: number, category: string][] = [
  ['Spade', 'GT-100', 24.5, 'Garden tools'],
  ['Kettle', 'KT-200', 39.9, 'Kitchen'],
  ['Desk lamp', 'LT-300', 19, 'Lighting'],
]

/** A PHP single-quoted literal (a bcrypt hash's "$2b$04$…" would be interpolated in double quotes). */
const phpString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

export async function startAdminerEditor(): Promise<AdminerEditor> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage('/usr/share/adminer/editor/index.php', 'adminer')
  await ensureDebianPackage('/usr/share/doc/php-sqlite3', 'php-sqlite3')
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-adminer-'))
  const www = join(dir, 'www')
  // A copy, as an admin would deploy it: the editor includes its siblings by relative paths.
  cpSync('/usr/share/adminer', www, { recursive: true, dereference: true })
  const file = join(dir, 'shop.sqlite')
  const password = 'shop-office-pass'
  const hash = await Bun.password.hash(password, { algorithm: 'bcrypt', cost: 4 })
  writeFileSync(
    join(www, 'editor', 'shop.php'),
    `<?php
function adminer_object() {
  include_once "../plugins/plugin.php";
  include_once "../plugins/login-password-less.php";
  class ShopEditor extends AdminerPlugin {
    function name() { return 'Shop back office'; }
    function loginFormField($name, $heading, $value) {
      return parent::loginFormField($name, $heading, str_replace('value="server"', 'value="sqlite"', $value));
    }
    function database() { return ${phpString(file)}; }
  }
  return new ShopEditor(array(new AdminerLoginPasswordLess(${phpString(hash)})));
}
include "./index.php";
`,
  )
  const db = new Database(file, { create: true })
  db.run('CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
  db.run(
    'CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, sku TEXT NOT NULL UNIQUE, price NUMERIC NOT NULL, category_id INTEGER REFERENCES categories(id))',
  )
  for (const name of CATEGORIES) db.query('INSERT INTO categories (name) VALUES (?)').run(name)
  db.close()
  const port = await freePort()
  const server = startPhpServer(port, www, { cwd: join(www, 'editor') })
  const url = `http://127.0.0.1:${port}/editor/shop.php`
  try {
    await waitUntilUp(url)
  } catch (err) {
    await server.stop()
    throw err
  }
  const open = () => new Database(file)
  const app: AdminerEditor = {
    name: 'adminer-editor',
    url,
    password,
    products() {
      const c = open()
      try {
        return c
          .query(
            'SELECT p.id, p.name, p.sku, p.price, c.name AS category FROM products p LEFT JOIN categories c ON c.id = p.category_id ORDER BY p.id',
          )
          .all() as Product[]
      } finally {
        c.close()
      }
    },
    addProduct(name, sku, price, category) {
      const c = open()
      try {
        return Number(
          c
            .query(
              'INSERT INTO products (name, sku, price, category_id) VALUES (?, ?, ?, (SELECT id FROM categories WHERE name = ?))',
            )
            .run(name, sku, price, category).lastInsertRowid,
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
  for (const row of SEEDED) app.addProduct(...row)
  return app
}
