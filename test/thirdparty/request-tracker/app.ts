// Debian's Request Tracker 5 (a helpdesk ticket system in Perl) started the way an admin would run
// a small private one: its own SQLite database, RT's standalone server (rt-server, Starlet under
// Plack) on a free loopback port, sign-in required, root with a known password, and two queues
// besides General ("IT Support", "Facilities").
//
// Everything of this run lives in a temp dir: RT reads its site config from RT_SITE_CONFIG (and
// RT_SITE_CONFIG_DIR, here an empty dir, so /etc/request-tracker5's settings stay out), and that
// config points the database, Mason's compiled components, the session files and the outgoing mail
// (a sendmail stand-in that appends to outgoing.mbox) into the dir. The database is made by
// rt-setup-database and setup.pl (about two seconds, so not cached). Seeding goes through RT's own
// objects (add-tickets.pl); the readers query the SQLite file directly (read-only).
import { Database } from 'bun:sqlite'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

const RT_SERVER = '/usr/share/request-tracker5/libexec/rt-server'
export const RT_USER = 'root'
export const RT_PASSWORD = 'Teal-Lantern-5309'
/** The queues a fresh run has (General is RT's own). */
export const RT_QUEUES = ['General', 'IT Support', 'Facilities']

export interface StoredTicket {
  id: number
  subject: string
  queue: string
  /** new, open, stalled, resolved, rejected, deleted. */
  status: string
  /** The owner's user name ("Nobody" when unowned). */
  owner: string
  /** The requestors' email addresses. */
  requestors: string[]
  /** The text the ticket was opened with (HTML reduced to its text). */
  description: string
}

export interface NewTicket {
  queue: string
  subject: string
  description?: string
  requestor?: string
  status?: string
  owner?: string
}

export interface RequestTracker extends RunningApp {
  /** The tickets as stored in RT's database, oldest first (merged-away ones left out). */
  tickets(): StoredTicket[]
  /** One ticket by its number. */
  ticket(id: number): StoredTicket | undefined
  /** Opens tickets through RT's own objects, as root; returns their numbers. */
  addTickets(tickets: NewTicket[]): number[]
  /** Number of sessions RT holds (its session files). */
  sessionCount(): number
}

export async function startRequestTracker(): Promise<RequestTracker> {
  await ensureDebianPackage(RT_SERVER, 'request-tracker5')
  await ensureDebianPackage('/usr/share/doc/rt5-db-sqlite/copyright', 'rt5-db-sqlite')
  await ensureDebianPackage('/usr/share/doc/rt5-standalone/copyright', 'rt5-standalone')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-request-tracker-'))
  try {
    const db = join(dir, 'rt.sqlite3')
    const sessions = join(dir, 'sessions')
    for (const sub of ['config.d', 'mason', 'sessions']) mkdirSync(join(dir, sub))
    const sendmail = join(dir, 'sendmail')
    writeFileSync(sendmail, `#!/bin/sh\ncat >> '${join(dir, 'outgoing.mbox')}'\n`)
    chmodSync(sendmail, 0o755)
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const config = join(dir, 'RT_SiteConfig.pm')
    writeFileSync(
      config,
      `${[
        `Set($rtname, 'helpdesk');`,
        `Set($Organization, 'example.com');`,
        `Set($CorrespondAddress, 'help@example.com');`,
        `Set($CommentAddress, 'help-comment@example.com');`,
        `Set($Timezone, 'UTC');`,
        `Set($DatabaseType, 'SQLite');`,
        `Set($DatabaseName, '${db}');`,
        `Set($WebPath, '');`,
        `Set($WebDomain, '127.0.0.1');`,
        `Set($WebPort, ${port});`,
        `Set($WebBaseURL, 'http://127.0.0.1:${port}');`,
        `Set($LogToSyslog, undef);`,
        `Set($LogToSTDERR, undef);`,
        `Set($LogToFile, 'warning');`,
        `Set($LogDir, '${dir}');`,
        `Set($LogToFileNamed, 'rt.log');`,
        `Set($MasonDataDir, '${join(dir, 'mason')}');`,
        `Set(%WebSessionProperties, Directory => '${sessions}', LockDirectory => '${sessions}', Transaction => 1);`,
        `Set($MailCommand, 'sendmailpipe');`,
        `Set($SendmailPath, '${sendmail}');`,
        '1;',
      ].join('\n')}\n`,
    )
    const env = {
      ...process.env,
      RT_SITE_CONFIG: config,
      RT_SITE_CONFIG_DIR: join(dir, 'config.d'),
      HOME: dir,
    }
    const perl = (args: string[], extra: Record<string, string> = {}) => {
      const run = Bun.spawnSync(args, { cwd: dir, env: { ...env, ...extra }, stdout: 'pipe', stderr: 'pipe' })
      if (run.exitCode !== 0)
        throw new Error(`request-tracker: ${args.join(' ')} failed: ${run.stderr.toString().slice(-2000)}`)
      return run.stdout.toString()
    }
    // SQLite needs no database server: --skip-create leaves the file to RT's own connect.
    perl(['/usr/sbin/rt-setup-database-5', '--action', 'init', '--skip-create'])
    perl(['perl', join(import.meta.dir, 'setup.pl')], { RT_PASSWORD })

    // Its own session (setsid): stop() ends the server and its Starlet workers, as one group.
    const server = Bun.spawn(
      ['setsid', RT_SERVER, '--host', '127.0.0.1', '--port', String(port), '--max-workers', '4'],
      { cwd: dir, env, stdout: 'ignore', stderr: Bun.file(join(dir, 'server.log')) },
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
    try {
      await waitUntilUp(url, 60_000)
    } catch (err) {
      await stopServer()
      throw err
    }
    const readTickets = (where: string, params: number[]): StoredTicket[] => {
      const d = new Database(db, { readonly: true })
      try {
        d.exec('PRAGMA busy_timeout = 10000')
        const rows = d
          .query(
            `SELECT t.id, t.Subject AS subject, q.Name AS queue, t.Status AS status, u.Name AS owner
             FROM Tickets t JOIN Queues q ON q.id = t.Queue JOIN Users u ON u.id = t.Owner
             WHERE t.id = t.EffectiveId ${where} ORDER BY t.id`,
          )
          .all(...params) as Omit<StoredTicket, 'requestors' | 'description'>[]
        const requestors = d.query(
          `SELECT u.EmailAddress AS email FROM Groups g JOIN GroupMembers m ON m.GroupId = g.id
           JOIN Users u ON u.id = m.MemberId
           WHERE g.Domain = 'RT::Ticket-Role' AND g.Name = 'Requestor' AND g.Instance = ? ORDER BY m.id`,
        )
        const parts = d.query(
          `SELECT a.ContentType AS type, a.ContentEncoding AS encoding, a.Content AS content
           FROM Transactions x JOIN Attachments a ON a.TransactionId = x.id
           WHERE x.ObjectType = 'RT::Ticket' AND x.ObjectId = ? AND x.Type = 'Create'
             AND a.ContentType LIKE 'text/%' ORDER BY a.id`,
        )
        return rows.map((row) => ({
          ...row,
          requestors: (requestors.all(row.id) as { email: string | null }[]).map((r) => r.email ?? ''),
          description: description(parts.all(row.id) as Part[]),
        }))
      } finally {
        d.close()
      }
    }
    return {
      name: 'request-tracker',
      url,
      tickets: () => readTickets('', []),
      ticket: (id) => readTickets('AND t.id = ?', [id])[0],
      addTickets(tickets) {
        const out = perl(['perl', join(import.meta.dir, 'add-tickets.pl')], {
          TICKETS_JSON: JSON.stringify(tickets),
        })
        const ids = /ids=([\d,]+)/.exec(out)?.[1]
        if (!ids) throw new Error(`request-tracker: add-tickets printed no ids: ${out}`)
        return ids.split(',').map(Number)
      },
      sessionCount: () => readdirSync(sessions).filter((f) => !f.endsWith('.lock')).length,
      async clearSessions() {
        // RT keeps each session in a file (Apache::Session::File) that every request loads by the
        // cookie's id; with the files gone, every cookie names no session and must sign in again.
        for (const f of readdirSync(sessions)) rmSync(join(sessions, f), { force: true })
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

interface Part {
  type: string
  encoding: string | null
  content: string | Uint8Array | null
}

/** The ticket's opening text: its plain-text part, else its HTML part reduced to text. */
function description(parts: Part[]): string {
  const text = (p: Part) => {
    const raw =
      typeof p.content === 'string' ? p.content : p.content ? Buffer.from(p.content).toString('utf8') : ''
    if (p.encoding === 'base64') return Buffer.from(raw, 'base64').toString('utf8')
    if (p.encoding === 'quoted-printable')
      return Buffer.from(
        raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8')
    return raw
  }
  const plain = parts.find((p) => p.type.startsWith('text/plain') && text(p).trim())
  if (plain) return text(plain).trim()
  const html = parts.find((p) => p.type.startsWith('text/html'))
  if (!html) return ''
  return text(html)
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .trim()
}
