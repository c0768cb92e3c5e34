// A private MariaDB server for the third-party apps that need one (phpMyAdmin, WordPress): a fresh
// datadir made by mariadb-install-db in a temp dir, mariadbd bound to 127.0.0.1 on a free port and
// to a socket in that dir, with a real root password (root signs in over TCP or the socket). It
// runs in its own process group (setsid), so stop() ends it and anything it started, then removes
// the temp dir. Debian's policy-rc.d blocks service starts, so the daemon is started here.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort } from '../../gauntlet/apps/fossil.ts'

export interface MariaDb {
  /** TCP port on 127.0.0.1. */
  port: number
  /** The server's unix socket. */
  socket: string
  rootPassword: string
  /** Runs SQL as root (over the socket) and returns the result rows (NULL as the string "NULL"). */
  query(sql: string, db?: string): string[][]
  /** A database and a user with every right on it, who signs in with the password from anywhere. */
  createDatabase(name: string, user: string, password: string): void
  stop(): Promise<void>
}

export async function startMariaDb(): Promise<MariaDb> {
  await ensureDebianPackage('/usr/sbin/mariadbd', 'mariadb-server')
  await ensureDebianPackage('/usr/bin/mariadb', 'mariadb-client')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-mariadb-'))
  const data = join(dir, 'data')
  const socket = join(dir, 'mysqld.sock')
  const rootPassword = `root-${crypto.randomUUID().slice(0, 8)}`
  const user = process.getuid?.() === 0 ? ['--user=root'] : []
  const install = Bun.spawnSync(
    [
      'mariadb-install-db',
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...user,
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  )
  if (install.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`mariadb-install-db failed: ${install.stderr.toString()}${install.stdout.toString()}`)
  }
  // Root gets a real password at first start (the fresh datadir's root has none).
  const init = join(dir, 'init.sql')
  writeFileSync(
    init,
    [
      // The install's other passwordless root accounts (127.0.0.1, ::1, the host name) go.
      "DELETE FROM mysql.global_priv WHERE User = 'root' AND Host <> 'localhost';",
      "DELETE FROM mysql.proxies_priv WHERE User = 'root' AND Host <> 'localhost';",
      "DELETE FROM mysql.global_priv WHERE User = '';",
      'FLUSH PRIVILEGES;',
      `ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('${rootPassword}');`,
      `CREATE USER 'root'@'127.0.0.1' IDENTIFIED BY '${rootPassword}';`,
      `GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;`,
      'FLUSH PRIVILEGES;',
      '',
    ].join('\n'),
  )
  mkdirSync(join(dir, 'tmp'))
  const port = await freePort()
  const log = join(dir, 'error.log')
  const proc = Bun.spawn(
    [
      'setsid',
      '/usr/sbin/mariadbd',
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${join(dir, 'mariadbd.pid')}`,
      `--log-error=${log}`,
      `--tmpdir=${join(dir, 'tmp')}`,
      `--init-file=${init}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=16M',
      '--performance-schema=OFF',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_general_ci',
      ...user,
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid, signal)
      } catch {
        proc.kill(signal)
      }
    }
    group('SIGTERM')
    const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)])
    if (!done) {
      group('SIGKILL')
      await proc.exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const client = (sql: string, db?: string) =>
    Bun.spawnSync(
      [
        'mariadb',
        '--no-defaults',
        `--socket=${socket}`,
        '-uroot',
        `-p${rootPassword}`,
        '--batch',
        '--skip-column-names',
        ...(db ? [db] : []),
      ],
      { stdin: Buffer.from(sql), stdout: 'pipe', stderr: 'pipe' },
    )
  const query = (sql: string, db?: string): string[][] => {
    const out = client(sql, db)
    if (out.exitCode !== 0)
      throw new Error(`mariadb: ${out.stderr.toString().trim()} (in ${sql.slice(0, 200)})`)
    const text = out.stdout.toString()
    return text
      .split('\n')
      .filter((line, i, all) => line !== '' || i < all.length - 1)
      .map((line) => line.split('\t').map(unescapeBatch))
  }
  // Up once the root password works over the socket (the init file has run).
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) {
      const why = existsSync(log) ? readFileSync(log, 'utf8').slice(-1500) : ''
      await stop()
      throw new Error(`mariadbd exited at start: ${why}`)
    }
    if (existsSync(socket) && client('SELECT 1').exitCode === 0) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error('mariadbd did not come up in 30 s')
    }
    await Bun.sleep(100)
  }
  return {
    port,
    socket,
    rootPassword,
    query,
    createDatabase(name, dbUser, password) {
      const q = (s: string) => s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")
      query(
        [
          `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;`,
          `CREATE USER IF NOT EXISTS '${q(dbUser)}'@'%' IDENTIFIED BY '${q(password)}';`,
          `CREATE USER IF NOT EXISTS '${q(dbUser)}'@'localhost' IDENTIFIED BY '${q(password)}';`,
          `GRANT ALL PRIVILEGES ON \`${name}\`.* TO '${q(dbUser)}'@'%';`,
          `GRANT ALL PRIVILEGES ON \`${name}\`.* TO '${q(dbUser)}'@'localhost';`,
          'FLUSH PRIVILEGES;',
        ].join('\n'),
      )
    },
    stop,
  }
}

/** The client's batch mode escapes tab, newline, backslash and NUL in values. */
function unescapeBatch(value: string): string {
  return value.replace(/\\([ntr0\\])/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c === '0' ? '\0' : '\\',
  )
}
