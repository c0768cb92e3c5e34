import { expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { ConfigError, loadConfig } from '../../src/config/index.ts'
import { cli } from '../helpers/cli.ts'

test('scheduled backups: off without a dir; every 24h and 7 kept by default', () => {
  const c = loadConfig({}, {})
  expect(c.backupDir).toBeUndefined()
  expect(c.backupEveryMs).toBe(24 * 3_600_000)
  expect(c.backupKeep).toBe(7)
})

test('scheduled backups: flags and variables, durations in s/m/h/d, the dir made absolute', () => {
  const c = loadConfig(
    { backupEveryMs: '6h' },
    { DESKHOOK_BACKUP_DIR: 'backups', DESKHOOK_BACKUP_EVERY: '1d', DESKHOOK_BACKUP_KEEP: '30' },
  )
  expect(c.backupDir).toBe(resolve('backups'))
  expect(c.backupEveryMs).toBe(6 * 3_600_000)
  expect(c.backupKeep).toBe(30)
  expect(loadConfig({}, { DESKHOOK_BACKUP_EVERY: '7d' }).backupEveryMs).toBe(7 * 86_400_000)
  expect(loadConfig({ backupEveryMs: '90s' }, {}).backupEveryMs).toBe(90_000)
})

test('scheduled backups: bad values are reported, naming flag and variable', () => {
  for (const [flags, expected] of [
    [
      { backupEveryMs: 'daily' },
      '--backup-every (DESKHOOK_BACKUP_EVERY, from --backup-every): must be a duration',
    ],
    [{ backupEveryMs: '30s' }, 'must be a duration from 1m to 30d'],
    [
      { backupKeep: '0' },
      '--backup-keep (DESKHOOK_BACKUP_KEEP, from --backup-keep): must be an integer from 1',
    ],
  ] as const) {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError)
    try {
      loadConfig(flags, {})
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toContain(expected)
    }
  }
})

test('serve --help lists the backup settings', async () => {
  const r = await cli(['serve', '--help'])
  for (const text of [
    '--backup-dir <dir>',
    'DESKHOOK_BACKUP_DIR',
    'DESKHOOK_BACKUP_EVERY, default 24h',
    'DESKHOOK_BACKUP_KEEP, default 7',
  ])
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(text)
})
