// Debian's phpMyAdmin (the web admin of MySQL/MariaDB databases, behind its cookie sign-in) on a
// private MariaDB (test/thirdparty/shared/mariadb.ts), served by PHP's own server from a private
// docroot in a temp dir: the package's files, with its own vendor_config.php pointing at a
// config.inc.php, temp dir and session dir of this run (never /etc/phpmyadmin). The database
// `shop` holds a seeded `customers` table, read back over the server's socket.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import { startPhpServer } from '../../gauntlet/apps/php-server.ts'
import type { RunningApp } from '../../gauntlet/types.ts'
import { type MariaDb, startMariaDb } from '../shared/mariadb.ts'

export interface Customer {
  id: number
  email: string
  name: string
  city: string
}

export interface PhpMyAdmin extends RunningApp {
  /** The MariaDB account that signs in to phpMyAdmin (it owns the `shop` database). */
  username: string
  password: string
  db: MariaDb
  /** The rows of shop.customers, by id. */
  customers(): Customer[]
  /** Inserts a customer straight into the database; returns its id. */
  addCustomer(email: string, name: string, city: string): number
}

const PMA = '/usr/share/phpmyadmin'

/** Customers the shop holds before any job runs (a real table is never empty). */
const SEEDED: [email: string, name: string, city: string][] = [
  ['karl@example.com', 'Karl Benz', 'Mannheim'],
  ['lise@example.com', 'Lise Meitner', 'Vienna'],
  ['yonath@example.com', 'Ada Yonath', 'Rehovot'],
]

export async function startPhpMyAdmin(): Promise<PhpMyAdmin> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${PMA}/index.php`, 'phpmyadmin')
  await ensureDebianPackage('/usr/share/doc/php-mysql', 'php-mysql')
  const db = await startMariaDb()
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-phpmyadmin-'))
  const cleanup = async () => {
    await db.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const username = 'office'
    const password = 'shop-office-pass'
    db.createDatabase('shop', username, password)
    db.query(
      `CREATE TABLE customers (
         id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
         email VARCHAR(190) NOT NULL UNIQUE,
         name VARCHAR(190) NOT NULL,
         city VARCHAR(190) NOT NULL
       ) ENGINE=InnoDB`,
      'shop',
    )
    const sql = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
    const insert = (email: string, name: string, city: string) =>
      Number(
        db.query(
          `INSERT INTO customers (email, name, city) VALUES (${sql(email)}, ${sql(name)}, ${sql(city)}); SELECT LAST_INSERT_ID();`,
          'shop',
        )[0]![0],
      )
    for (const row of SEEDED) insert(...row)

    // The docroot: the package's files, but its own libraries/vendor_config.php (which names the
    // config file and temp dir). index.php and the other entry points are copied, not linked, since
    // PHP resolves __DIR__ through a symlink and ROOT_PATH would then be the package's own dir.
    const www = join(dir, 'www')
    const sessions = join(dir, 'sessions')
    const temp = join(dir, 'tmp')
    for (const d of [www, join(www, 'libraries'), sessions, temp]) mkdirSync(d, { recursive: true })
    for (const entry of readdirSync(PMA, { withFileTypes: true })) {
      if (entry.name === 'libraries') continue
      if (entry.isDirectory()) symlinkSync(join(PMA, entry.name), join(www, entry.name))
      else cpSync(join(PMA, entry.name), join(www, entry.name), { dereference: true })
    }
    for (const entry of readdirSync(join(PMA, 'libraries'), { withFileTypes: true })) {
      if (entry.name === 'vendor_config.php') continue
      const from = join(PMA, 'libraries', entry.name)
      if (entry.isDirectory()) symlinkSync(from, join(www, 'libraries', entry.name))
      else cpSync(from, join(www, 'libraries', entry.name), { dereference: true })
    }
    const config = join(dir, 'config.inc.php')
    writeFileSync(
      join(www, 'libraries', 'vendor_config.php'),
      `<?php
declare(strict_types=1);
if (! defined('PHPMYADMIN')) { exit; }
return [
    'autoloadFile' => ROOT_PATH . 'autoload.php',
    'tempDir' => '${temp}/',
    'changeLogFile' => '/usr/share/doc/phpmyadmin/changelog.gz',
    'licenseFile' => '/usr/share/doc/phpmyadmin/copyright',
    'sqlDir' => ROOT_PATH . 'sql' . DIRECTORY_SEPARATOR,
    'configFile' => '${config}',
    'customHeaderFile' => ROOT_PATH . 'config.header.inc.php',
    'customFooterFile' => ROOT_PATH . 'config.footer.inc.php',
    'versionCheckDefault' => false,
    'localePath' => ROOT_PATH . 'locale' . DIRECTORY_SEPARATOR,
    'cacheDir' => ROOT_PATH . 'libraries' . DIRECTORY_SEPARATOR . 'cache' . DIRECTORY_SEPARATOR,
    'versionSuffix' => '',
];
`,
    )
    const secret = crypto.randomUUID().replaceAll('-', '')
    writeFileSync(
      config,
      `<?php
$cfg['blowfish_secret'] = '${secret}';
$i = 1;
$cfg['Servers'][$i]['verbose'] = 'shop';
$cfg['Servers'][$i]['auth_type'] = 'cookie';
$cfg['Servers'][$i]['host'] = '127.0.0.1';
$cfg['Servers'][$i]['port'] = '${db.port}';
$cfg['Servers'][$i]['compress'] = false;
$cfg['Servers'][$i]['AllowNoPassword'] = false;
$cfg['TempDir'] = '${temp}';
$cfg['SessionSavePath'] = '${sessions}';
$cfg['UploadDir'] = '';
$cfg['SaveDir'] = '';
$cfg['VersionCheck'] = false;
$cfg['SendErrorReports'] = 'never';
$cfg['ShowDbStructureCreation'] = false;
`,
    )
    // PHP's own session store for this run (the sessions clearSessions() empties).
    const ini = join(dir, 'php.d')
    mkdirSync(ini)
    writeFileSync(join(ini, 'zz-thirdparty.ini'), `session.save_path = "${sessions}"\n`)
    const port = await freePort()
    const server = startPhpServer(port, www, {
      cwd: www,
      // A leading empty entry keeps the CLI's own conf.d (mysqli, sessions) and adds this one.
      env: { ...process.env, PHP_INI_SCAN_DIR: `:${ini}` },
    })
    const url = `http://127.0.0.1:${port}/index.php`
    try {
      await waitUntilUp(url, 30_000)
    } catch (err) {
      await server.stop()
      throw err
    }
    return {
      name: 'phpmyadmin',
      url,
      username,
      password,
      db,
      customers: () =>
        db
          .query('SELECT id, email, name, city FROM customers ORDER BY id', 'shop')
          .map(([id, email, name, city]) => ({ id: Number(id), email: email!, name: name!, city: city! })),
      addCustomer: insert,
      async clearSessions() {
        for (const f of readdirSync(sessions)) rmSync(join(sessions, f), { force: true })
      },
      async stop() {
        await server.stop()
        await cleanup()
      },
    }
  } catch (err) {
    await cleanup()
    throw err
  }
}
