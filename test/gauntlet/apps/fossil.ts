// Debian's fossil (an SCM with a built-in ticket tracker and wiki), started the way an admin
// would: a fresh repository in a temp dir, `fossil server` on a free loopback port. Its data is
// in the repository file, so the tests can check what a job really did there.
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'

export interface Fossil extends RunningApp {
  /** Tickets as stored in the repository. */
  tickets(): { uuid: string; title: string; status: string; type: string }[]
  /** Adds a ticket with the fossil CLI (test data a job can look up); returns its id. */
  addTicket(title: string, type?: string): string
}

export async function startFossil(): Promise<Fossil> {
  await ensureDebianPackage('/usr/bin/fossil', 'fossil')
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-fossil-'))
  const repo = join(dir, 'project.fossil')
  const env = { ...process.env, HOME: dir, USER: 'admin' }
  const init = Bun.spawnSync(['fossil', 'init', '--admin-user', 'admin', repo], { env })
  if (init.exitCode !== 0) throw new Error(`fossil init failed: ${init.stderr.toString()}`)
  const port = await freePort()
  const server = Bun.spawn(['fossil', 'server', '--port', String(port), '--localhost', '--localauth', repo], {
    env,
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const url = `http://127.0.0.1:${port}/`
  await waitUntilUp(url)
  const read = <T>(sql: string) => {
    const db = new Database(repo, { readonly: true })
    try {
      return db.query(sql).all() as T[]
    } finally {
      db.close()
    }
  }
  return {
    name: 'fossil',
    url,
    tickets: () =>
      read<{ uuid: string; title: string; status: string; type: string }>(
        'SELECT tkt_uuid AS uuid, title, status, type FROM ticket ORDER BY tkt_id',
      ),
    addTicket(title, type = 'Code_Defect') {
      const add = Bun.spawnSync(
        ['fossil', 'ticket', 'add', 'title', title, 'status', 'Open', 'type', type, '-R', repo],
        { env },
      )
      if (add.exitCode !== 0) throw new Error(`fossil ticket add failed: ${add.stderr.toString()}`)
      const out = add.stdout.toString()
      const id = /([0-9a-f]{40})/.exec(out)?.[1]
      if (!id) throw new Error(`fossil ticket add printed no id: ${out}`)
      return id
    },
    async stop() {
      server.kill()
      await server.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

export async function waitUntilUp(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const up = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    )
    if (up) return
    if (Date.now() > deadline) throw new Error(`${url} did not start within ${timeoutMs} ms`)
    // Polling a server that is starting: there is no event to wait on.
    await Bun.sleep(100)
  }
}
