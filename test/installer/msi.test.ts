import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildMsi, msiVersion } from '../../scripts/build-msi.ts'
import { tempDir } from '../helpers/temp-dir.ts'

/**
 * Builds the agent's MSI with Debian's wixl and reads it back with msitools (msiinfo, msiextract):
 * what Windows Installer would find in it. The program packed here is a STAND-IN made in this
 * test's temp dir (a few bytes starting with "MZ"), not the real agent: packaging does not run it.
 */
const dir = tempDir('deskhook-msi-')
const exe = join(dir.path, 'deskhook.exe')
const msi = join(dir.path, 'deskhook-agent.msi')
const standIn = new Uint8Array(64 * 1024).map((_, i) => (i * 13 + 5) % 256)
standIn.set([0x4d, 0x5a])

function msiinfo(...args: string[]): string {
  const run = Bun.spawnSync(['msiinfo', ...args], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`msiinfo ${args.join(' ')}: ${run.stderr.toString()}`)
  return run.stdout.toString()
}

/** A table's rows (msiinfo export: column names, column types, table name and keys, then rows). */
function rows(table: string): string[][] {
  return msiinfo('export', msi, table)
    .split(/\r?\n/)
    .slice(3)
    .filter(Boolean)
    .map((line) => line.split('\t'))
}
const byKey = (table: string) => new Map(rows(table).map((r) => [r[0]!, r]))

beforeAll(async () => {
  writeFileSync(exe, standIn)
  await buildMsi({ exe, out: msi, version: '1.2.3' })
})
afterAll(() => dir.remove())

describe('the agent MSI', () => {
  test('installs deskhook.exe, the stand-in byte for byte, into LocalAppData\\deskhook', () => {
    expect(msiinfo('tables', msi).split(/\s+/)).toContain('File')
    const [file] = rows('File')
    expect(file?.slice(0, 4)).toEqual(['AgentExe', 'AgentProgram', 'deskhook.exe', String(standIn.length)])
    expect(byKey('Directory').get('INSTALLDIR')).toEqual(['INSTALLDIR', 'LocalAppDataFolder', 'deskhook'])
    expect(byKey('Component').get('AgentProgram')?.[2]).toBe('INSTALLDIR')

    const out = join(dir.path, 'extracted')
    const run = Bun.spawnSync(['msiextract', '-C', out, msi], { stdout: 'pipe', stderr: 'pipe' })
    expect(run.exitCode).toBe(0)
    expect(run.stdout.toString().trim().split('\n')).toEqual(['deskhook/deskhook.exe'])
    expect(new Uint8Array(readFileSync(join(out, 'deskhook', 'deskhook.exe')))).toEqual(standIn)
  })

  test('is per user: no ALLUSERS, no MSIINSTALLPERUSER, and no elevation asked', () => {
    const props = byKey('Property')
    expect(props.has('ALLUSERS')).toBe(false)
    expect(props.has('MSIINSTALLPERUSER')).toBe(false)
    // Word count 10 = compressed (2) + "elevated privileges are not required" (8).
    expect(msiinfo('suminfo', msi)).toMatch(/^Source: 10 /m)
    expect(props.get('ProductVersion')?.[1]).toBe('1.2.3')
    expect(props.get('UpgradeCode')?.[1]).toBe('{DBFA0095-5F1C-426F-A385-D4380619B35D}')
    const conditions = rows('LaunchCondition').map((r) => r[0])
    expect(conditions).toContain('Installed OR NOT ALLUSERS')
  })

  test('takes SERVER and TOKEN, keeps TOKEN out of the log, and refuses to install without them', () => {
    expect(byKey('Property').get('MsiHiddenProperties')?.[1]).toBe('TOKEN')
    const conditions = rows('LaunchCondition').map((r) => r[0])
    expect(conditions).toContain('Installed OR SERVER ~<< "http://" OR SERVER ~<< "https://"')
    expect(conditions).toContain('Installed OR WIX_UPGRADE_DETECTED OR TOKEN')
    expect(conditions).toContain('NOT TOKEN OR TOKEN << "dhe_"')
    // SERVER is remembered in HKCU and read back (before the launch conditions) when not given.
    const registry = rows('Registry')
    expect(registry).toContainEqual([
      expect.any(String),
      '1',
      'Software\\deskhook\\agent',
      'Server',
      '[SERVER]',
      'AgentProgram',
    ])
    expect(rows('RegLocator')).toEqual([['SavedServer', '1', 'Software\\deskhook\\agent', 'Server', '2']])
    expect(byKey('AppSearch').get('SAVEDSERVER')?.[1]).toBe('SavedServer')
    const sequence = byKey('InstallExecuteSequence')
    expect(sequence.get('UseSavedServer')?.[1]).toBe('NOT SERVER AND SAVEDSERVER')
    expect(Number(sequence.get('UseSavedServer')?.[2])).toBeLessThan(
      Number(sequence.get('LaunchConditions')?.[2]),
    )
    // The token goes to the file the agent reads with --token-file.
    const actions = byKey('CustomAction')
    expect(actions.get('WriteToken')?.slice(2, 4)).toEqual([
      'DESKHOOK_CMD',
      '/d /c (echo [TOKEN])>"[INSTALLDIR]enroll-token.txt"',
    ])
    expect(actions.get('SetCmdPath')?.[3]).toBe('[SystemFolder]cmd.exe')
    expect(sequence.get('WriteToken')?.[1]).toBe('TOKEN AND NOT (REMOVE~="ALL")')
  })

  test('starts the agent at logon from HKCU Run, and right after the install, with the same command line', () => {
    const run = rows('Registry').find((r) => r[2] === 'Software\\Microsoft\\Windows\\CurrentVersion\\Run')
    expect(run?.slice(1)).toEqual([
      '1', // HKCU
      'Software\\Microsoft\\Windows\\CurrentVersion\\Run',
      'deskhook-agent',
      '"[#AgentExe]" agent --server "[SERVER]" --token-file "[INSTALLDIR]enroll-token.txt"',
      'StartAtLogon',
    ])
    const start = byKey('CustomAction').get('StartAgent')
    // 18 (run an installed file) + 64 (ignore its exit code) + 128 (do not wait for it).
    expect(Number(start?.[1]) & 0xff).toBe(18 + 64 + 128)
    expect(start?.[2]).toBe('AgentExe')
    expect(`"[#AgentExe]" ${start?.[3]}`).toBe(run?.[4] ?? 'no Run value')
    const sequence = byKey('InstallExecuteSequence')
    expect(Number(sequence.get('StartAgent')?.[2])).toBeGreaterThan(
      Number(sequence.get('InstallFinalize')?.[2]),
    )
    expect(sequence.get('StartAgent')?.[1]).toBe('NOT (REMOVE~="ALL")')
  })

  test("stops the user's agent before its program is replaced; removes its state on uninstall only", () => {
    const actions = byKey('CustomAction')
    expect(actions.get('StopAgent')?.[3]).toBe(
      '/f /t /im deskhook.exe /fi "USERNAME eq [%USERDOMAIN]\\[%USERNAME]"',
    )
    expect(actions.get('RemoveAgentState')?.[3]).toContain('rd /s /q "[INSTALLDIR]agent"')
    const sequence = byKey('InstallExecuteSequence')
    expect(Number(sequence.get('StopAgent')?.[2])).toBeLessThan(Number(sequence.get('InstallValidate')?.[2]))
    expect(sequence.get('RemoveAgentState')?.[1]).toBe('REMOVE~="ALL" AND NOT UPGRADINGPRODUCTCODE')
    // A newer MSI replaces an older one (and the old one's uninstall keeps the credential).
    expect(rows('Upgrade').map((r) => r.at(-1))).toEqual(
      expect.arrayContaining(['WIX_UPGRADE_DETECTED', 'WIX_DOWNGRADE_DETECTED']),
    )
  })
})

describe('scripts/build-msi.ts', () => {
  test('fails with what to do when the program is missing (it never makes one up)', async () => {
    const missing = join(dir.path, 'nothing-here', 'deskhook.exe')
    await expect(buildMsi({ exe: missing, out: join(dir.path, 'never.msi') })).rejects.toThrow(
      /deskhook\.exe is missing: build the Windows agent first \(`bun run build` writes dist\/deskhook\.exe\)/,
    )
  })

  test('turns the package version into an MSI ProductVersion', () => {
    expect(msiVersion('0.1.0')).toBe('0.1.0')
    expect(msiVersion('1.4.2-beta.3')).toBe('1.4.2')
    expect(() => msiVersion('256.0.0')).toThrow(/cannot be an MSI ProductVersion/)
    expect(() => msiVersion('next')).toThrow(/cannot be an MSI ProductVersion/)
  })
})
