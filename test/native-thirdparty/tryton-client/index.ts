// Tryton's desktop client (development set, bench/native-split.md): Debian's tryton-client 6.0, a
// GTK 3 ERP client, against the web benchmark's local Tryton server (test/thirdparty/tryton/app.ts:
// trytond with the party module, an SQLite database "crm", the admin user). The client keeps its
// settings in ~/.config/tryton/6.0/: tryton.conf (the last login: profile, host, database, user)
// and profiles.cfg (the connection profiles of its login dialog). They are seeded as someone who
// has signed in before would have them, so the login dialog opens filled in; the client then asks
// for the password in a dialog of its own. The jobs' effects land in trytond's SQLite file, read
// with the web benchmark's readers.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTryton, TRYTON_DATABASE, TRYTON_USER, type Tryton } from '../../thirdparty/tryton/app.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'
import { trytonClientJobs } from './jobs.ts'

export interface TrytonClient extends NativeRunningApp, Pick<Tryton, 'parties' | 'addParties'> {}

/**
 * The directory startTryton made for this server (its conf listens on this port): app.ts keeps it
 * to itself, and the database file in it is where the jobs' effects land.
 */
function serverDir(port: string): string {
  const root = tmpdir()
  for (const name of readdirSync(root).filter((n) => n.startsWith('thirdparty-tryton-'))) {
    try {
      const conf = readFileSync(join(root, name, 'trytond.conf'), 'utf8')
      if (conf.includes(`listen = 127.0.0.1:${port}\n`)) return join(root, name)
    } catch {}
  }
  throw new Error(`tryton-client: no trytond directory listening on port ${port}`)
}

/** The company's regular customers, as they were entered over time. */
const REGULARS = [
  { name: 'Kestrel Bikes', email: 'sales@kestrel-bikes.example', phone: '+44 113 496 0721' },
  { name: 'Blue Harbor Bakery', email: 'hello@blueharbor.example', phone: '+44 1947 600 118' },
  { name: 'Quayside Books', email: 'shop@quaysidebooks.example', city: 'Newcastle upon Tyne' },
]

export const app: NativeThirdPartyApp<TrytonClient> = {
  name: 'tryton-client',
  kind: 'ERP client against its local server (GTK 3)',
  async start(home) {
    const tryton = await startTryton()
    try {
      const hostPort = new URL(tryton.url).host
      const db = join(serverDir(new URL(tryton.url).port), `${TRYTON_DATABASE}.sqlite`)
      // The client's config directory is ~/.config/tryton/<major.minor> (it reads HOME, not XDG).
      const config = join(home.path, '.config', 'tryton', '6.0')
      mkdirSync(config, { recursive: true, mode: 0o700 })
      const profile = 'CRM'
      writeFileSync(
        join(config, 'profiles.cfg'),
        [
          `[${profile}]`,
          `host = ${hostPort}`,
          `database = ${TRYTON_DATABASE}`,
          `username = ${TRYTON_USER}`,
          '',
        ].join('\n'),
      )
      writeFileSync(
        join(config, 'tryton.conf'),
        [
          '[login]',
          `profile = ${profile}`,
          `host = ${hostPort}`,
          `db = ${TRYTON_DATABASE}`,
          'expanded = False',
          `login = ${TRYTON_USER}`,
          '',
        ].join('\n'),
      )
      tryton.addParties(REGULARS)
      return {
        name: 'tryton-client',
        url: `tryton://${hostPort}/${TRYTON_DATABASE}`,
        spec: { executable: 'tryton' },
        dataFiles: [db],
        // Every job signs in first, and the client stores what each sign-in gives it.
        ownState: [
          {
            path: /^\.config\/tryton\/6\.0\/(device_cookies|tryton\.conf|known_hosts|accel\.map)$/,
            why:
              'each sign-in stores a device cookie, the user’s language the server sent and the ' +
              'server’s fingerprint (known_hosts), and quitting after one saves the menus’ ' +
              'shortcuts (accel.map), as the client’s own code does on every connection and quit',
          },
        ],
        parties: () => tryton.parties(),
        addParties: (parties) => tryton.addParties(parties),
        stop: () => tryton.stop(),
      }
    } catch (err) {
      await tryton.stop()
      throw err
    }
  },
  jobs: trytonClientJobs,
}
