// Roundcube (Debian's `roundcube`, `roundcube-sqlite3`) on a private Dovecot IMAP server (Debian's
// `dovecot-imapd`), all in one temp dir: Dovecot with its own config file on a free 127.0.0.1
// port, one user from a passwd-file, mail in a Maildir written here as files; a private copy of
// Roundcube with its own config (SQLite database in the temp dir, the IMAP server above, no SMTP)
// served by PHP's own server. The mail is read back from the Maildir files, and the sign-in
// sessions from Roundcube's own `session` table.
import { Database } from 'bun:sqlite'
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import { startPhpServer } from '../../gauntlet/apps/php-server.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

export const ROUNDCUBE_USER = 'office'
export const ROUNDCUBE_PASSWORD = 'office-mail-pass-7'

export interface MailMessage {
  from: string
  to?: string
  subject: string
  /** When it was sent (written into the Date header). */
  date: Date
  body: string
  /** Already read (the Maildir "S" flag). */
  seen?: boolean
}

export interface StoredMessage {
  file: string
  from: string
  to: string
  subject: string
  date: string
  body: string
  flags: string
}

export interface Roundcube extends RunningApp {
  imapPort: number
  /** The messages in the user's inbox, read from the Maildir files Dovecot keeps. */
  messages(): StoredMessage[]
  /** Delivers a message straight into the inbox (a file in Maildir/new), as a mail server would. */
  addMessage(message: MailMessage): void
  /** The messages in a folder other than the inbox ("Suppliers", "Projects/Spring"). */
  folderMessages(folder: string): StoredMessage[]
  /** Delivers a message into a folder other than the inbox. */
  addFolderMessage(folder: string, message: MailMessage): void
  /** The user's folders other than the inbox, as paths ("Projects/Spring"), read from the Maildir. */
  folders(): string[]
  /** Roundcube's stored sign-in sessions (rows of its `session` table). */
  sessions(): { sess_id: string; changed: string }[]
  /** Empties Roundcube's session table: every signed-in browser must sign in again. */
  clearSessions(): Promise<void>
}

/** The uid Dovecot reads and writes the mail as (its mail processes never run as root). */
const MAIL_UID = 65534
const MAIL_GID = 65534
const ROOT = '/usr/share/roundcube'

export async function startRoundcube(): Promise<Roundcube> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${ROOT}/index.php`, 'roundcube')
  await ensureDebianPackage('/usr/share/doc/roundcube-sqlite3', 'roundcube-sqlite3')
  await ensureDebianPackage('/usr/sbin/dovecot', 'dovecot-imapd')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-roundcube-'))
  // Dovecot's login and mail processes (other users) reach their sockets and the mail in here.
  chmodSync(dir, 0o755)
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {})
    stops.length = 0
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const imapPort = await freePort()
    const maildir = join(dir, 'mail', ROUNDCUBE_USER, 'Maildir')
    const dovecot = await startDovecot(dir, imapPort, maildir)
    stops.push(dovecot)
    seedInbox(maildir)
    seedFolders(maildir)

    const rc = join(dir, 'roundcube')
    // Debian's links to its shared JS libraries are followed; the few that point nowhere are left out.
    cpSync(ROOT, rc, { recursive: true, dereference: true, filter: (src) => existsSync(src) })
    const config = join(rc, 'config')
    mkdirSync(config)
    for (const f of ['defaults.inc.php', 'mimetypes.php']) cpSync(join('/etc/roundcube', f), join(config, f))
    for (const d of ['logs', 'temp']) mkdirSync(join(rc, d))
    const db = join(dir, 'roundcube.db')
    const desKey = crypto.randomUUID().replaceAll('-', '').slice(0, 24)
    writeFileSync(
      join(config, 'config.inc.php'),
      `<?php
$config = [];
$config['db_dsnw'] = 'sqlite:///${db}?mode=0640';
$config['imap_host'] = '127.0.0.1:${imapPort}';
$config['smtp_host'] = '';
$config['mail_domain'] = 'example.com';
$config['des_key'] = '${desKey}';
$config['product_name'] = 'Office Webmail';
$config['support_url'] = '';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['enable_spellcheck'] = false;
$config['enable_installer'] = false;
$config['log_dir'] = '${join(rc, 'logs')}/';
$config['temp_dir'] = '${join(rc, 'temp')}/';
`,
    )
    // The public entry point, as Debian's public_html: the install lives one level up.
    const web = join(rc, 'public_html')
    mkdirSync(join(web, 'program'), { recursive: true })
    writeFileSync(
      join(web, 'index.php'),
      `<?php\ndefine('INSTALL_PATH', '${rc}/');\ninclude INSTALL_PATH . 'index.php';\n`,
    )
    symlinkSync('../skins', join(web, 'skins'))
    symlinkSync('../plugins', join(web, 'plugins'))
    symlinkSync('../../program/js', join(web, 'program', 'js'))
    symlinkSync('../../program/resources', join(web, 'program', 'resources'))

    const port = await freePort()
    const server = startPhpServer(port, web, { cwd: rc })
    stops.push(() => server.stop())
    const url = `http://127.0.0.1:${port}/`
    await waitUntilUp(url, 30_000)
    // Roundcube makes its SQLite database at its first request.
    if (!existsSync(db)) throw new Error('roundcube did not create its database')

    const readDb = <T>(sql: string) => {
      const h = new Database(db, { readonly: true })
      try {
        return h.query(sql).all() as T[]
      } finally {
        h.close()
      }
    }
    return {
      name: 'roundcube',
      url,
      imapPort,
      messages: () => readInbox(maildir),
      addMessage: (m) => deliver(maildir, m),
      folderMessages: (folder) => readInbox(folderDir(maildir, folder)),
      addFolderMessage: (folder, m) => deliver(folderDir(maildir, folder), m),
      folders: () => listFolders(maildir),
      sessions: () => readDb<{ sess_id: string; changed: string }>('SELECT sess_id, changed FROM session'),
      async clearSessions() {
        const h = new Database(db)
        try {
          h.exec('PRAGMA busy_timeout = 5000')
          h.exec('DELETE FROM session')
        } finally {
          h.close()
        }
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

async function startDovecot(dir: string, port: number, maildir: string): Promise<() => Promise<void>> {
  for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true })
  chownTree(join(dir, 'mail'))
  for (const d of ['run', 'state']) mkdirSync(join(dir, d))
  const passwd = join(dir, 'passwd')
  writeFileSync(passwd, `${ROUNDCUBE_USER}:{PLAIN}${ROUNDCUBE_PASSWORD}::::::\n`)
  const conf = join(dir, 'dovecot.conf')
  const log = join(dir, 'dovecot.log')
  writeFileSync(
    conf,
    `base_dir = ${join(dir, 'run')}
state_dir = ${join(dir, 'state')}
log_path = ${log}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n ${passwd}
}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_GID} home=${join(dir, 'mail')}/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`,
  )
  // Its own session and process group, so stopping it ends its auth, login and imap processes too.
  const proc = Bun.spawn(['setsid', '/usr/sbin/dovecot', '-F', '-c', conf], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const stop = async () => {
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid, signal)
      } catch {
        proc.kill(signal)
      }
    }
    group('SIGTERM')
    const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)])
    if (!done) group('SIGKILL')
    await proc.exited
    // Children that outlive the master (imap processes finishing a command) go with the group.
    await Bun.sleep(200)
    try {
      process.kill(-proc.pid, 'SIGKILL')
    } catch {}
  }
  const deadline = Date.now() + 15_000
  for (;;) {
    if (proc.exitCode !== null) {
      const why = existsSync(log) ? readFileSync(log, 'utf8') : await new Response(proc.stderr).text()
      throw new Error(`dovecot exited at start: ${why.slice(-1500)}`)
    }
    const greeting = await imapGreeting(port)
    if (greeting?.startsWith('* OK')) return stop
    if (Date.now() > deadline) {
      await stop()
      throw new Error('dovecot did not come up in 15 s')
    }
    await Bun.sleep(100)
  }
}

async function imapGreeting(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let done = false
    const finish = (v: string | undefined) => {
      if (!done) {
        done = true
        resolve(v)
      }
    }
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        data(socket, data) {
          finish(Buffer.from(data).toString())
          socket.end()
        },
        error: () => finish(undefined),
        connectError: () => finish(undefined),
        close: () => finish(undefined),
      },
    }).catch(() => finish(undefined))
    setTimeout(() => finish(undefined), 2000)
  })
}

function chownTree(path: string): void {
  chownSync(path, MAIL_UID, MAIL_GID)
  for (const entry of readdirSync(path, { withFileTypes: true }))
    if (entry.isDirectory()) chownTree(join(path, entry.name))
    else chownSync(join(path, entry.name), MAIL_UID, MAIL_GID)
}

let delivered = 0

function deliver(maildir: string, m: MailMessage): void {
  const id = `${Date.now()}.M${++delivered}P${process.pid}.deskhook`
  const text = [
    `Return-Path: <${/<([^>]+)>/.exec(m.from)?.[1] ?? m.from}>`,
    `From: ${m.from}`,
    `To: ${m.to ?? `Office <${ROUNDCUBE_USER}@example.com>`}`,
    `Subject: ${m.subject}`,
    `Date: ${m.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${id}@example.com>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    m.body,
    '',
  ].join('\r\n')
  // Written in tmp, then moved into place, as Maildir delivery goes; read mail is in cur with S.
  const file = m.seen ? join(maildir, 'cur', `${id}:2,S`) : join(maildir, 'new', id)
  writeFileSync(file, text)
  chownSync(file, MAIL_UID, MAIL_GID)
}

function readInbox(maildir: string): StoredMessage[] {
  const out: StoredMessage[] = []
  for (const sub of ['new', 'cur']) {
    const d = join(maildir, sub)
    if (!existsSync(d)) continue
    for (const name of readdirSync(d)) {
      const raw = readFileSync(join(d, name), 'utf8').replaceAll('\r\n', '\n')
      const split = raw.indexOf('\n\n')
      const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ')
      const header = (h: string) => new RegExp(`^${h}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? ''
      out.push({
        file: name,
        from: header('From'),
        to: header('To'),
        subject: header('Subject'),
        date: header('Date'),
        body: raw.slice(split + 2).trim(),
        flags: name.includes(':2,') ? name.split(':2,')[1]! : '',
      })
    }
  }
  return out.sort((a, b) => Date.parse(a.date) - Date.parse(b.date))
}

/** An office inbox of a few weeks' ordinary mail. */
export const SEED: MailMessage[] = [
  {
    from: 'Maria Keller <maria.keller@northwind-supplies.example>',
    subject: 'Invoice 2291 for February deliveries',
    date: new Date('2025-03-03T12:05:00Z'),
    body: 'Hello,\n\nplease find our invoice 2291 for the February deliveries attached. Payment is due within 30 days.\n\nKind regards,\nMaria Keller\nNorthwind Supplies',
    seen: true,
  },
  {
    from: 'Tom Becker <tom@becker-logistics.example>',
    subject: 'Delivery schedule for week 11',
    date: new Date('2025-03-05T11:40:00Z'),
    body: 'Hi,\n\nthe trucks for week 11 arrive Tuesday and Thursday morning, between 8 and 10.\n\nTom',
    seen: true,
  },
  {
    from: 'Harbor Print Accounts <accounts@harbor-print.example>',
    subject: 'Overdue invoice reminder',
    date: new Date('2025-03-06T12:20:00Z'),
    body: 'Dear customer,\n\nour records show that invoice HP-0457 is 14 days overdue. Please arrange payment.\n\nHarbor Print',
    seen: true,
  },
  {
    from: 'Lena Park <lena.park@office.example>',
    subject: 'Team lunch on Friday',
    date: new Date('2025-03-07T12:00:00Z'),
    body: 'Hi all,\n\nwe are booking a table at the Green Olive for Friday at 12:30. Reply if you want to join.\n\nLena',
  },
  {
    from: 'IT Helpdesk <helpdesk@office.example>',
    subject: 'Printer on floor 2 is back online',
    date: new Date('2025-03-10T12:15:00Z'),
    body: 'The printer on floor 2 has a new fuser and is back online. Please report any paper jams.\n\nIT Helpdesk',
  },
  {
    from: 'Jonas Weber <jonas.weber@weber-consulting.example>',
    subject: 'Workshop agenda and travel details',
    date: new Date('2025-03-11T12:30:00Z'),
    body: 'Hello,\n\nattached is the agenda for the workshop on 20 March. The venue is a ten-minute walk from the central station.\n\nBest,\nJonas Weber',
  },
  {
    from: 'Sofia Marin <sofia.marin@office.example>',
    subject: 'Lunch order for the client visit',
    date: new Date('2025-03-12T11:55:00Z'),
    body: 'Could someone order sandwiches for six people for the client visit on Thursday?\n\nThanks,\nSofia',
  },
]

function seedInbox(maildir: string): void {
  for (const m of SEED) deliver(maildir, m)
}

/**
 * Dovecot's Maildir++ layout: a folder is a directory named for its path with a dot before each
 * level (`.Projects.Spring`), and the folders a mail client shows are listed in `subscriptions`.
 */
function folderDir(maildir: string, folder: string): string {
  return join(maildir, `.${folder.split('/').join('.')}`)
}

function listFolders(maildir: string): string[] {
  return readdirSync(maildir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith('.') && e.name.length > 1)
    .map((e) => e.name.slice(1).split('.').join('/'))
    .sort()
}

/** Folders an office keeps its mail in, each with a few messages nobody reads in the inbox. */
export const FOLDERS: Record<string, MailMessage[]> = {
  Suppliers: [
    {
      from: 'Northwind Supplies <orders@northwind-supplies.example>',
      subject: 'Price list for the second quarter',
      date: new Date('2025-02-20T09:00:00Z'),
      body: 'Our new price list applies from 1 April.',
      seen: true,
    },
    {
      from: 'Becker Logistics <tom@becker-logistics.example>',
      subject: 'New pallet rates',
      date: new Date('2025-02-24T10:30:00Z'),
      body: 'From March, a pallet costs 4 % more.',
      seen: true,
    },
  ],
  Projects: [
    {
      from: 'Jonas Weber <jonas.weber@weber-consulting.example>',
      subject: 'Kick-off notes for the intranet project',
      date: new Date('2025-02-18T15:00:00Z'),
      body: 'The notes from Monday are below.',
      seen: true,
    },
  ],
  Archive: [
    {
      from: 'Lena Park <lena.park@office.example>',
      subject: 'Christmas party photos',
      date: new Date('2024-12-20T16:00:00Z'),
      body: 'The photos are on the shared drive.',
      seen: true,
    },
  ],
}

function seedFolders(maildir: string): void {
  for (const [folder, messages] of Object.entries(FOLDERS)) {
    const dir = folderDir(maildir, folder)
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(dir, sub), { recursive: true })
    writeFileSync(join(dir, 'maildirfolder'), '')
    for (const m of messages) deliver(dir, m)
    chownTree(dir)
  }
  const subscriptions = join(maildir, 'subscriptions')
  writeFileSync(subscriptions, `${Object.keys(FOLDERS).join('\n')}\n`)
  chownSync(subscriptions, MAIL_UID, MAIL_GID)
}
