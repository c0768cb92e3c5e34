// KeePassXC's data (bench/native-split.md): one .kdbx database behind a master password, made and
// read with keepassxc-cli, the command line tool the app ships (the file itself is encrypted).
// The seed is a person's own passwords: a few sites, each with a user name, a password and a URL.
import { execFileSync } from 'node:child_process'

export const MASTER_PASSWORD = 'Copper-Lantern-5821'

export interface KeeEntry {
  group: string
  title: string
  username: string
  password: string
  url: string
  notes: string
}

const cli = (args: string[], stdin: string) =>
  execFileSync('keepassxc-cli', args, { input: stdin, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] })

/** A new database at `file` locked with the master password, holding these entries (in its root group). */
export function createDatabase(file: string, entries: Omit<KeeEntry, 'group' | 'notes'>[]) {
  // A short key derivation: the seed is made per run, and the app unlocks it as fast.
  cli(['db-create', '-q', '-p', '-t', '200', file], `${MASTER_PASSWORD}\n${MASTER_PASSWORD}\n`)
  for (const e of entries)
    cli(
      ['add', '-q', '-u', e.username, '--url', e.url, '-p', file, e.title],
      `${MASTER_PASSWORD}\n${e.password}\n`,
    )
}

/** Every entry of the database (the recycle bin's too, with its group), as `keepassxc-cli export` lists them. */
export function entries(file: string): KeeEntry[] {
  const rows = parseCsv(cli(['export', '-q', '-f', 'csv', file], `${MASTER_PASSWORD}\n`))
  const [head, ...body] = rows
  const at = (name: string) => head!.indexOf(name)
  return body.map((r) => ({
    group: r[at('Group')] ?? '',
    title: r[at('Title')] ?? '',
    username: r[at('Username')] ?? '',
    password: r[at('Password')] ?? '',
    url: r[at('URL')] ?? '',
    notes: r[at('Notes')] ?? '',
  }))
}

/** The entries outside the recycle bin (what a person counts as their passwords). */
export const liveEntries = (file: string) => entries(file).filter((e) => !/recycle bin/i.test(e.group))

/** RFC 4180 CSV as keepassxc-cli writes it: every field quoted, quotes doubled, newlines inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else if (c !== '\r') field += c
  }
  if (field || row.length) rows.push([...row, field])
  return rows
}
