// Debian's Radicale (a CalDAV/CardDAV server for contacts and calendars) with its web interface,
// which asks to sign in first. Collections live as folders under a temp dir.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../types.ts'
import { freePort, waitUntilUp } from './fossil.ts'

export interface Radicale extends RunningApp {
  /** The collections of a user, with the title and description each has (from its .Radicale.props). */
  collections(user: string): { id: string; title: string; description: string }[]
  /** Makes an address book straight in the storage folder (test data a job can find). */
  putAddressBook(user: string, id: string, title: string, description: string): void
}

export async function startRadicale(): Promise<Radicale> {
  await ensureDebianPackage('/usr/bin/radicale', 'radicale')
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-radicale-'))
  const port = await freePort()
  const server = Bun.spawn(
    [
      'radicale',
      '--storage-filesystem-folder',
      join(dir, 'collections'),
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--auth-type',
      'none',
      '--logging-level',
      'warning',
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}/.web/`
  await waitUntilUp(url)
  return {
    name: 'radicale',
    url,
    collections(user) {
      const home = join(dir, 'collections', 'collection-root', user)
      if (!existsSync(home)) return []
      return readdirSync(home).flatMap((id) => {
        const props = join(home, id, '.Radicale.props')
        if (!existsSync(props)) return []
        const parsed = JSON.parse(readFileSync(props, 'utf8')) as Record<string, string>
        return [
          {
            id,
            title: parsed['D:displayname'] ?? '',
            description: parsed['CR:addressbook-description'] ?? '',
          },
        ]
      })
    },
    putAddressBook(user, id, title, description) {
      const folder = join(dir, 'collections', 'collection-root', user, id)
      mkdirSync(folder, { recursive: true })
      writeFileSync(
        join(folder, '.Radicale.props'),
        JSON.stringify({
          'D:displayname': title,
          'CR:addressbook-description': description,
          tag: 'VADDRESSBOOK',
        }),
      )
    },
    async stop() {
      server.kill()
      await server.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
