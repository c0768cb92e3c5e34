/**
 * The gauntlet tests (test/gauntlet/) start real third-party apps from Debian's packages. Installs
 * the missing ones when this process may (root with apt-get, as in CI); otherwise says what to install.
 */
import { ensureDebianPackages } from './debian-packages.ts'

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
  // The third-party slice (test/thirdparty/slice.thirdparty.test.ts): Django's stock admin site.
  ['/usr/lib/python3/dist-packages/django/__init__.py', 'python3-django'],
  ['/usr/share/doc/php-intl', 'php-intl'],
  ['/usr/share/doc/php-mbstring', 'php-mbstring'],
  ['/usr/share/doc/php-xml', 'php-xml'],
]
await ensureDebianPackages('The gauntlet', APPS)
