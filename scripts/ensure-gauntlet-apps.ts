/**
 * The gauntlet tests (test/gauntlet/) start real third-party apps from Debian's packages. Installs
 * the missing ones when this process may (root with apt-get, as in CI); otherwise says what to install.
 */
import { existsSync } from 'node:fs'

const APPS: [binary: string, pkg: string][] = [
  ['/usr/bin/fossil', 'fossil'],
  ['/usr/bin/radicale', 'radicale'],
  ['/usr/bin/php', 'php-cli'],
  ['/usr/share/dokuwiki/doku.php', 'dokuwiki'],
  ['/usr/share/phpliteadmin/phpliteadmin.php', 'phpliteadmin'],
  ['/usr/share/adminer/editor/index.php', 'adminer'],
  // PHP's SQLite module (phpLiteAdmin needs it); its doc folder is how the package shows.
  ['/usr/share/doc/php-sqlite3', 'php-sqlite3'],
  ['/usr/share/mediawiki/index.php', 'mediawiki'],
  ['/usr/share/doc/php-intl', 'php-intl'],
  ['/usr/share/doc/php-mbstring', 'php-mbstring'],
  ['/usr/share/doc/php-xml', 'php-xml'],
]
const missing = APPS.filter(([bin]) => !existsSync(bin)).map(([, pkg]) => pkg)
if (missing.length === 0) process.exit(0)

const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
if (!canApt) {
  console.error(`The gauntlet needs Debian packages: sudo apt-get install -y ${missing.join(' ')}`)
  process.exit(1)
}
console.log(`Installing gauntlet apps from Debian packages: ${missing.join(', ')}`)
const apt = (args: string[]) =>
  Bun.spawn(['apt-get', ...args], {
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).exited
const install = ['install', '-y', '--no-install-recommends', ...missing]
if ((await apt(install)) !== 0) {
  if ((await apt(['update'])) !== 0 || (await apt(install)) !== 0) {
    console.error(`apt-get could not install ${missing.join(' ')}`)
    process.exit(1)
  }
}
