import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { extract, pack } from 'tar-stream'
import { cli } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'

// Issue 23: a backup whose files were changed and whose manifest checksums were recomputed
// restored silently. The manifest is now signed with a key that never goes into an archive.
setDefaultTimeout(60_000)

const work = tempDir('deskhook-backup-signature-')
const source = join(work.path, 'source')
const archive = join(work.path, 'backup.tar.gz')
const keyFile = join(source, 'backup-signing.key')
let n = 0
const target = () => join(work.path, `restored-${++n}`)

/** The archive's entries, in order. */
async function entries(file: string): Promise<[string, Buffer][]> {
  const out: [string, Buffer][] = []
  const x = extract()
  const done = (async () => {
    for await (const e of x) {
      const chunks: Buffer[] = []
      for await (const c of e) chunks.push(c as Buffer)
      out.push([e.header.name, Buffer.concat(chunks)])
    }
  })()
  x.end(gunzipSync(readFileSync(file)))
  await done
  return out
}

async function write(file: string, list: [string, Buffer][]): Promise<void> {
  const p = pack()
  const chunks: Buffer[] = []
  p.on('data', (c) => chunks.push(c as Buffer))
  const ended = new Promise<void>((ok) => p.on('end', () => ok()))
  for (const [name, bytes] of list) p.entry({ name, size: bytes.length, mode: 0o600 }, bytes)
  p.finalize()
  await ended
  writeFileSync(file, gzipSync(Buffer.concat(chunks)))
}

/** What someone holding the archive can do: change the database, recompute every checksum. */
async function tampered(keepSignature: boolean): Promise<string> {
  const list = await entries(archive)
  const dbFile = join(work.path, `tamper-${++n}.db`)
  writeFileSync(dbFile, list.find(([name]) => name === 'deskhook.db')![1])
  const db = new Database(dbFile)
  db.run("UPDATE api_keys SET name = 'changed by someone else'")
  db.close()
  const changed = readFileSync(dbFile)
  const manifest = JSON.parse(list.find(([name]) => name === 'manifest.json')![1].toString('utf8'))
  const entry = manifest.files.find((f: { path: string }) => f.path === 'deskhook.db')
  entry.bytes = changed.length
  entry.sha256 = createHash('sha256').update(changed).digest('hex')
  const out = join(work.path, `tampered-${n}.tar.gz`)
  await write(
    out,
    list
      .filter(([name]) => keepSignature || name !== 'manifest.sig')
      .map(([name, bytes]): [string, Buffer] =>
        name === 'deskhook.db'
          ? [name, changed]
          : name === 'manifest.json'
            ? [name, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)]
            : [name, bytes],
      ),
  )
  return out
}

beforeAll(async () => {
  expect((await cli(['keys', 'create', '--name', 'ops', '--data', source])).code).toBe(0)
  const r = await cli(['backup', '--data', source, '--out', archive])
  expect(r.code).toBe(0)
})
afterAll(() => work.remove())

describe('a signed backup', () => {
  test('the signing key stays out of the archive; the archive carries the signature', async () => {
    const names = (await entries(archive)).map(([name]) => name)
    expect(names).toContain('manifest.sig')
    expect(names).not.toContain('backup-signing.key')
    expect(existsSync(keyFile)).toBe(true)
  })

  test('changed and its checksums recomputed: refused, even with --trust-unsigned; nothing restored', async () => {
    const bad = await tampered(true)
    for (const extra of [[], ['--trust-unsigned']]) {
      const dir = target()
      const r = await cli(['restore', bad, '--data', dir, '--signing-key', keyFile, ...extra])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('was changed after it was made')
      expect(r.stderr).not.toMatch(/^\s+at /m)
      expect(existsSync(join(dir, 'deskhook.db'))).toBe(false)
    }
  })

  test('changed with its signature removed: refused as unsigned unless --trust-unsigned is given', async () => {
    const bad = await tampered(false)
    const dir = target()
    const r = await cli(['restore', bad, '--data', dir, '--signing-key', keyFile])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('is not signed')
    expect(r.stderr).toContain('--trust-unsigned')
    expect(existsSync(join(dir, 'deskhook.db'))).toBe(false)
  })

  test('unchanged, with the key: restored, and the restored dir signs with the same key', async () => {
    const dir = target()
    const r = await cli(['restore', archive, '--data', dir, '--signing-key', keyFile])
    expect(r.stderr).toBe(`unpacking ${archive}\nchecking the database (integrity_check)\n`)
    expect(r.code).toBe(0)
    expect(readFileSync(join(dir, 'backup-signing.key'))).toEqual(readFileSync(keyFile))
  })

  test('on a new machine without the key: refused with how to proceed; --trust-unsigned restores it', async () => {
    const dir = target()
    const r = await cli(['restore', archive, '--data', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('no key to check it was given')
    expect(r.stderr).toContain(`it was made from ${source}`)
    expect(r.stderr).toContain('--signing-key')
    expect(r.stderr).toContain('--trust-unsigned')
    expect(existsSync(join(dir, 'deskhook.db'))).toBe(false)
    const trusted = await cli(['restore', archive, '--data', dir, '--trust-unsigned'])
    expect(trusted.code).toBe(0)
    expect(existsSync(join(dir, 'deskhook.db'))).toBe(true)
  })

  test('another server’s key: refused, naming both keys', async () => {
    const other = join(work.path, 'other.key')
    writeFileSync(other, Buffer.alloc(32, 7))
    const r = await cli(['restore', archive, '--data', target(), '--signing-key', other])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('is signed with another key')
  })
})
