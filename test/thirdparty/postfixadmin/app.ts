// Debian's PostfixAdmin (the web admin of a Postfix mail server's domains and mailboxes, behind an
// admin sign-in), served by PHP's own server from a private copy of the package in a temp dir:
// its own config.local.php (SQLite database, setup password, no DNS checks of domains), its own
// Smarty compile dir and PHP session dir, and a tiny SMTP sink on loopback that takes the welcome
// mails a new mailbox gets. The schema is made by the package's upgrade.php, the superadmin and
// the domain example.org by scripts/postfixadmin-cli; mailboxes are read from the SQLite file.
import { Database } from 'bun:sqlite'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import { startPhpServer } from '../../gauntlet/apps/php-server.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export interface Mailbox {
  username: string
  name: string
  local_part: string
  domain: string
  active: number
}

export interface PostfixAdmin extends RunningApp {
  /** The superadmin who signs in (an email address, as PostfixAdmin's admins are). */
  username: string
  password: string
  domain: string
  /** The mailboxes as stored, by address. */
  mailboxes(domain?: string): Mailbox[]
  /** Whether the stored (hashed) password of a mailbox is this one. */
  passwordMatches(address: string, password: string): boolean
  /** Adds a mailbox with the package's CLI (not the web UI). */
  addMailbox(address: string, name: string, password: string): void
  /** Adds a domain with the package's CLI. */
  addDomain(domain: string, description: string): void
  /** The recipients of the mails the app sent (welcome mails). */
  mailsSentTo(): string[]
}

const PFA = '/usr/share/postfixadmin'

export async function startPostfixAdmin(): Promise<PostfixAdmin> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${PFA}/public/login.php`, 'postfixadmin')
  await ensureDebianPackage('/usr/share/doc/php-sqlite3', 'php-sqlite3')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-postfixadmin-'))
  const smtp = startSmtpSink()
  const cleanup = () => {
    smtp.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    // The private copy: every file of the package but its links to /etc and /var.
    const root = join(dir, 'postfixadmin')
    mkdirSync(root)
    for (const entry of readdirSync(PFA)) {
      if (['templates_c', 'config.inc.php', 'config.local.php'].includes(entry)) continue
      cpSync(join(PFA, entry), join(root, entry), { recursive: true, dereference: true })
    }
    mkdirSync(join(root, 'templates_c'))
    // Debian's config.inc.php reads the dbconfig-common settings; this copy has none.
    const stock = readFileSync('/etc/postfixadmin/config.inc.php', 'utf8')
    if (!stock.includes("require_once('dbconfig.inc.php');"))
      throw new Error('postfixadmin: /etc/postfixadmin/config.inc.php no longer reads dbconfig.inc.php')
    writeFileSync(
      join(root, 'config.inc.php'),
      stock.replace(
        "require_once('dbconfig.inc.php');",
        "$dbtype = 'sqlite'; $dbserver = ''; $dbuser = ''; $dbpass = ''; $dbname = ''; $dbport = '';",
      ),
    )
    const dbFile = join(dir, 'postfixadmin.db')
    writeFileSync(dbFile, '')
    const sessions = join(dir, 'sessions')
    mkdirSync(sessions)
    const ini = join(dir, 'php.d')
    mkdirSync(ini)
    writeFileSync(join(ini, 'zz-thirdparty.ini'), `session.save_path = "${sessions}"\n`)
    const env = { ...process.env, PHP_INI_SCAN_DIR: `:${ini}` }
    const php = (args: string[], cwd = root) => {
      const out = Bun.spawnSync(['php', ...args], { cwd, env, stdout: 'pipe', stderr: 'pipe' })
      return { code: out.exitCode, text: out.stdout.toString() + out.stderr.toString() }
    }
    const setupPassword = 'setup-secret-2026'
    const hash = php(['-r', 'echo password_hash($argv[1], PASSWORD_DEFAULT);', setupPassword]).text.trim()
    writeFileSync(
      join(root, 'config.local.php'),
      `<?php
$CONF['configured'] = true;
$CONF['database_type'] = 'sqlite';
$CONF['database_name'] = '${dbFile}';
$CONF['setup_password'] = '${hash}';
$CONF['default_language'] = 'en';
// No DNS here: the example domains do not resolve.
$CONF['emailcheck_resolve_domain'] = 'NO';
$CONF['admin_email'] = 'postmaster@example.org';
$CONF['smtp_server'] = '127.0.0.1';
$CONF['smtp_port'] = '${smtp.port}';
`,
    )
    // The schema, as setup.php would make it.
    const upgraded = php(['-r', 'require "upgrade.php";'], join(root, 'public'))
    if (upgraded.code !== 0 || !/updating to version/.test(upgraded.text))
      throw new Error(`postfixadmin upgrade.php failed: ${upgraded.text.slice(-800)}`)
    const cli = (args: string[], done: RegExp) => {
      const out = php([join(root, 'scripts', 'postfixadmin-cli.php'), ...args])
      if (out.code !== 0 || !done.test(out.text))
        throw new Error(
          `postfixadmin-cli ${args.slice(0, 3).join(' ')} failed: ${out.text.trim().slice(-600)}`,
        )
    }
    const username = 'admin@example.org'
    const password = 'Mailadmin2026'
    cli(
      [
        'admin',
        'add',
        username,
        '--password',
        password,
        '--password2',
        password,
        '--superadmin',
        '1',
        '--active',
        '1',
      ],
      /has been added/,
    )
    const addDomain = (domain: string, description: string) =>
      cli(
        [
          'domain',
          'add',
          domain,
          '--description',
          description,
          '--aliases',
          '0',
          '--mailboxes',
          '0',
          '--active',
          '1',
          '--default-aliases',
          '0',
        ],
        /has been added/,
      )
    const domain = 'example.org'
    addDomain(domain, 'Example Org')
    const port = await freePort()
    const server = startPhpServer(port, join(root, 'public'), { cwd: join(root, 'public'), env })
    const url = `http://127.0.0.1:${port}/`
    try {
      await waitUntilUp(`${url}login.php`)
    } catch (err) {
      await server.stop()
      throw err
    }
    const read = <T>(sql: string, ...params: string[]) => {
      const db = new Database(dbFile, { readonly: true })
      try {
        return db.query(sql).all(...params) as T[]
      } finally {
        db.close()
      }
    }
    return {
      name: 'postfixadmin',
      url,
      username,
      password,
      domain,
      mailboxes: (d) =>
        read<Mailbox>(
          `SELECT username, name, local_part, domain, active FROM mailbox${d ? ' WHERE domain = ?' : ''} ORDER BY username`,
          ...(d ? [d] : []),
        ),
      passwordMatches(address, pw) {
        const row = read<{ password: string }>('SELECT password FROM mailbox WHERE username = ?', address)[0]
        if (!row) return false
        const out = php([
          '-r',
          'echo crypt($argv[1], $argv[2]) === $argv[2] ? "same" : "differs";',
          pw,
          row.password,
        ])
        return out.text.trim() === 'same'
      },
      addMailbox(address, name, pw) {
        cli(
          [
            'mailbox',
            'add',
            address,
            '--password',
            pw,
            '--password2',
            pw,
            '--name',
            name,
            '--quota',
            '0',
            '--active',
            '1',
            '--welcome-mail',
            '0',
          ],
          /added/,
        )
      },
      addDomain,
      mailsSentTo: () => [...smtp.recipients],
      async clearSessions() {
        for (const f of readdirSync(sessions)) rmSync(join(sessions, f), { force: true })
      },
      async stop() {
        await server.stop()
        cleanup()
      },
    }
  } catch (err) {
    cleanup()
    throw err
  }
}

/** An SMTP server on loopback that accepts every mail and keeps its recipients. */
function startSmtpSink(): { port: number; recipients: string[]; stop(): void } {
  const recipients: string[] = []
  const state = new WeakMap<object, { buffer: string; inData: boolean }>()
  const server = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(socket) {
        state.set(socket, { buffer: '', inData: false })
        socket.write('220 sink ESMTP\r\n')
      },
      data(socket, chunk) {
        const s = state.get(socket)!
        s.buffer += chunk.toString()
        let nl = s.buffer.indexOf('\n')
        while (nl >= 0) {
          const line = s.buffer.slice(0, nl).replace(/\r$/, '')
          s.buffer = s.buffer.slice(nl + 1)
          if (s.inData) {
            if (line === '.') {
              s.inData = false
              socket.write('250 queued\r\n')
            }
          } else {
            const verb = line.split(' ')[0]!.toUpperCase()
            if (verb === 'DATA') {
              s.inData = true
              socket.write('354 go on\r\n')
            } else if (verb === 'QUIT') {
              socket.write('221 bye\r\n')
              socket.end()
            } else if (verb === 'AUTH') socket.write('334 go on\r\n')
            else {
              const to = /^RCPT TO:\s*<([^>]*)>/i.exec(line)?.[1]
              if (to) recipients.push(to)
              socket.write('250 ok\r\n')
            }
          }
          nl = s.buffer.indexOf('\n')
        }
      },
    },
  })
  return { port: server.port, recipients, stop: () => server.stop(true) }
}
