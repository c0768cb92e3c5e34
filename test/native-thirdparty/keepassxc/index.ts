// KeePassXC (development set, bench/native-split.md): a Qt 5 password manager. It opens the .kdbx
// database named on its command line at its unlock screen, which asks for the master password
// (every job carries it as a secret). Its data is read with keepassxc-cli (data.ts).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'
import { createDatabase } from './data.ts'
import { keepassxcJobs } from './jobs.ts'

export const SEED = [
  {
    title: 'Webmail',
    username: 'alice.morgan@example.com',
    password: 'Tulip-Meadow-42',
    url: 'https://mail.example.com',
  },
  {
    title: 'Bank of Leeds',
    username: 'amorgan1987',
    password: 'Granite-Owl-7730',
    url: 'https://online.bankofleeds.example',
  },
  { title: 'Home Router', username: 'admin', password: 'Violet-Kettle-19', url: 'http://192.168.1.1' },
  {
    title: 'Library Card',
    username: 'M0048213',
    password: 'Saffron-Reed-65',
    url: 'https://catalogue.leedslibraries.example',
  },
]

export const app: NativeThirdPartyApp = {
  name: 'keepassxc',
  kind: 'password manager, a database behind a master password (Qt 5)',
  async start(home) {
    const file = join(home.path, 'Passwords.kdbx')
    createDatabase(file, SEED)
    // What a person who has used KeePassXC would have: its settings version, the update check
    // off (Debian's build offers none, and asks nothing at first start), the password generator's
    // settings it writes on the first New Entry (so a job's New Entry leaves the file as it was),
    // and the defaults otherwise, among them "Automatically save after every change" (checked).
    const config = join(home.env.XDG_CONFIG_HOME!, 'keepassxc')
    mkdirSync(config, { recursive: true })
    writeFileSync(
      join(config, 'keepassxc.ini'),
      [
        '[General]',
        'ConfigVersion=2',
        'UpdateCheckMessageShown=true',
        '',
        '[GUI]',
        'CheckForUpdates=false',
        '',
        '[PasswordGenerator]',
        'AdditionalChars=',
        'ExcludedChars=',
        '',
      ].join('\n'),
    )
    const running: NativeRunningApp = {
      name: 'keepassxc',
      url: `file://${file}`,
      spec: { executable: 'keepassxc', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: keepassxcJobs,
}
