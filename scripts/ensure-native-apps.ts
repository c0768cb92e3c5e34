/**
 * The native benchmark's apps (bench/native-split.md), from Debian's packages: installed when
 * this process may (root with apt-get), else it says what to install. Not needed by the tests;
 * `bun run bench:builder native` runs it first. Tryton's client also needs the web benchmark's
 * Tryton server (scripts/ensure-gauntlet-apps.ts installs it).
 */
import { ensureDebianPackages } from './debian-packages.ts'

await ensureDebianPackages('The native benchmark apps', [
  ['/usr/bin/keepassxc', 'keepassxc'],
  ['/usr/bin/gnucash', 'gnucash'],
  // GnuCash opens SQLite books through libdbi's SQLite driver.
  ['/usr/lib/x86_64-linux-gnu/dbd/libdbdsqlite3.so', 'libdbd-sqlite3'],
  ['/usr/bin/tryton', 'tryton-client'],
  ['/usr/bin/mousepad', 'mousepad'],
  ['/usr/bin/gnumeric', 'gnumeric'],
  ['/usr/bin/grisbi', 'grisbi'],
  ['/usr/bin/sqlitebrowser', 'sqlitebrowser'],
  ['/usr/bin/orage', 'orage'],
  ['/usr/bin/featherpad', 'featherpad'],
  ['/usr/bin/texworks', 'texworks'],
])
