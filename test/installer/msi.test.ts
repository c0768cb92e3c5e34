import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  buildMsi,
  encodedCommand,
  msiVersion,
  nextBuild,
  STARTUP_COMMAND,
  signingFromEnv,
} from '../../scripts/build-msi.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { powershell51Problems } from './powershell-51.ts'

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

const builtAt = new Date('2026-03-04T05:06:07Z')
beforeAll(async () => {
  writeFileSync(exe, standIn)
  await buildMsi({ exe, out: msi, version: '1.2.3', builtAt, sign: null })
})
afterAll(() => dir.remove())

describe('the agent MSI', () => {
  test('installs deskhook.exe, the stand-in byte for byte, into LocalAppData\\deskhook', () => {
    expect(msiinfo('tables', msi).split(/\s+/)).toContain('File')
    const file = byKey('File').get('AgentExe')
    expect(file?.slice(0, 4)).toEqual(['AgentExe', 'AgentProgram', 'deskhook.exe', String(standIn.length)])
    expect(byKey('Directory').get('INSTALLDIR')).toEqual(['INSTALLDIR', 'LocalAppDataFolder', 'deskhook'])
    expect(byKey('Component').get('AgentProgram')?.[2]).toBe('INSTALLDIR')

    const out = join(dir.path, 'extracted')
    const run = Bun.spawnSync(['msiextract', '-C', out, msi], { stdout: 'pipe', stderr: 'pipe' })
    expect(run.exitCode).toBe(0)
    expect(run.stdout.toString().trim().split('\n').sort()).toEqual([
      'deskhook/agent-startup.ps1',
      'deskhook/deskhook.exe',
    ])
    expect(new Uint8Array(readFileSync(join(out, 'deskhook', 'deskhook.exe')))).toEqual(standIn)
    expect(readFileSync(join(out, 'deskhook', 'agent-startup.ps1'), 'utf8')).toBe(
      readFileSync(join(import.meta.dir, '../../agent-installer/agent-startup.ps1'), 'utf8'),
    )
  })

  test('is per user: no ALLUSERS, no MSIINSTALLPERUSER, and no elevation asked', () => {
    const props = byKey('Property')
    expect(props.has('ALLUSERS')).toBe(false)
    expect(props.has('MSIINSTALLPERUSER')).toBe(false)
    // Word count 10 = compressed (2) + "elevated privileges are not required" (8).
    expect(msiinfo('suminfo', msi)).toMatch(/^Source: 10 /m)
    expect(props.get('ProductVersion')?.[1]).toBe(msiVersion('1.2.3', builtAt))
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

  test('refuses SYSTEM (Intune/SCCM "System") before anything is written or the token used', () => {
    const conditions = new Map(rows('LaunchCondition').map((r) => [r[0], r[1]]))
    expect(conditions.get('Installed OR NOT (UserSID = "S-1-5-18")')).toContain('runs as SYSTEM')
    const sequence = byKey('InstallExecuteSequence')
    const launch = Number(sequence.get('LaunchConditions')?.[2])
    for (const later of ['InstallFiles', 'WriteRegistryValues', 'WriteToken', 'StartAgent'])
      expect(Number(sequence.get(later)?.[2])).toBeGreaterThan(launch)
  })

  test('starts the agent at logon and again when it exits: agent-startup.ps1 registers the task, as install.ps1 does', () => {
    // No Run value as MSI data: the task, or the Run value where policy forbids the task, never both.
    expect(rows('Registry').filter((r) => r[2]?.includes('CurrentVersion\\Run'))).toEqual([])
    expect(byKey('File').get('StartupScript')?.slice(1, 3)).toEqual(['StartupScript', 'agent-startup.ps1'])
    const actions = byKey('CustomAction')
    expect(actions.get('SetPowerShellPath')?.[3]).toBe(
      '[System64Folder]WindowsPowerShell\\v1.0\\powershell.exe',
    )
    const start = actions.get('StartAgent')
    // 50 (run the program a property names) + 0 (wait, and fail the install on its exit code).
    expect(Number(start?.[1])).toBe(50)
    expect(start?.[2]).toBe('DESKHOOK_POWERSHELL')
    const target = start?.[3] ?? ''
    expect(target.length).toBeLessThanOrEqual(255)
    const encoded = /^-NoProfile -NonInteractive -WindowStyle Hidden -EncodedCommand ([A-Za-z0-9+/=]+)$/.exec(
      target,
    )?.[1]
    expect(Buffer.from(encoded ?? '', 'base64').toString('utf16le')).toBe(
      'iex (gc -Raw "$env:LOCALAPPDATA\\deskhook\\agent-startup.ps1")',
    )
    expect(encodedCommand(STARTUP_COMMAND)).toBe(encoded!)
    const sequence = byKey('InstallExecuteSequence')
    const at = (action: string) => Number(sequence.get(action)?.[2])
    expect(at('WriteToken')).toBeGreaterThan(at('InstallFinalize'))
    expect(at('StartAgent')).toBeGreaterThan(at('WriteToken'))
    expect(sequence.get('StartAgent')?.[1]).toBe('NOT (REMOVE~="ALL")')

    // The task is the one-liner's: same triggers, restart settings and principal.
    const taskBlock = (text: string) => {
      const from = text.indexOf('    $action = New-ScheduledTaskAction')
      return text.slice(from, text.indexOf('| Out-Null', from))
    }
    const startup = readFileSync(join(import.meta.dir, '../../agent-installer/agent-startup.ps1'), 'utf8')
    const oneLiner = readFileSync(
      join(import.meta.dir, '../../src/modules/agent-install/install.ps1'),
      'utf8',
    )
    expect(taskBlock(startup)).toContain('-RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1)')
    expect(taskBlock(startup)).toContain('-RepetitionInterval (New-TimeSpan -Minutes 5)')
    expect(taskBlock(startup)).toBe(taskBlock(oneLiner))
    expect(powershell51Problems(startup)).toEqual([])
    // The agent is started with the token file; once enrolled it no longer needs it (src/cli/agent.ts).
    expect(startup).toContain(
      `$arguments = 'agent --server "' + $server + '" --token-file "' + $tokenFile + '"'`,
    )
    expect(startup).toContain('Start-ScheduledTask -TaskName $taskName')
  })

  test("uninstall removes the task, the Run value, the agent's state and its HKCU key; an upgrade keeps them", () => {
    const actions = byKey('CustomAction')
    expect(actions.get('RemoveAgentStartup')?.[3]).toBe(
      '/d /c schtasks /delete /tn "deskhook agent ([%USERNAME])" /f & reg delete "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" /v deskhook-agent /f',
    )
    expect(actions.get('RemoveAgentState')?.[3]).toBe(
      '/d /c rd /s /q "[INSTALLDIR]agent" & rd /s /q "[INSTALLDIR]logs" & del /f /q "[INSTALLDIR]enroll-token.txt"',
    )
    expect(actions.get('RemoveProductKey')?.[3]).toBe('/d /c reg delete "HKCU\\Software\\deskhook" /f')
    const sequence = byKey('InstallExecuteSequence')
    for (const action of ['RemoveAgentStartup', 'RemoveAgentState', 'RemoveProductKey'])
      expect(sequence.get(action)?.[1]).toBe('REMOVE~="ALL" AND NOT UPGRADINGPRODUCTCODE')
    // The files the MSI installed are its own to remove; the folder goes with them.
    expect(rows('RemoveFile').map((r) => r.slice(1, 3))).toEqual([['AgentProgram', '']])
  })
})

describe('versions: every build its own, same-version rebuilds replace each other', () => {
  /** Windows Installer compares the first three fields of a version (FindRelatedProducts). */
  const compare = (a: string, b: string) => {
    const [x, y] = [a, b].map((v) => v.split('.').slice(0, 3).map(Number).concat([0, 0, 0]).slice(0, 3))
    for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!
    return 0
  }
  /** Which Upgrade row of the MSI an installed version falls in (attributes 256: minimum inclusive, 512: maximum inclusive). */
  const detectedAs = (installed: string): string[] =>
    rows('Upgrade')
      .filter(([, min, max, , attributes]) => {
        const bits = Number(attributes)
        const aboveMin = !min || (bits & 256 ? compare(installed, min) >= 0 : compare(installed, min) > 0)
        const belowMax = !max || (bits & 512 ? compare(installed, max) <= 0 : compare(installed, max) < 0)
        return aboveMin && belowMax
      })
      .map((r) => r.at(-1)!)
  const version = () => byKey('Property').get('ProductVersion')![1]!
  const hours = (n: number) => new Date(builtAt.getTime() + n * 3_600_000)

  test('the ProductVersion: major.minor, the build hour (third field, compared) and the second', () => {
    expect(version()).toBe('1.2.10253.367')
    expect(msiVersion('1.2.3', hours(1))).toBe('1.2.10254.367')
    expect(msiVersion('1.2.3', new Date(builtAt.getTime() + 1000))).toBe('1.2.10253.368')
    expect(byKey('Property').get('ARPCOMMENTS')?.[1]).toBe('deskhook 1.2.3, built 2026-03-04T05:06:07Z')
  })

  test('an installed earlier build or a same-hour rebuild is upgraded; a later build refuses this one', () => {
    expect(detectedAs(msiVersion('1.2.3', hours(-1)))).toEqual(['WIX_UPGRADE_DETECTED'])
    expect(detectedAs(msiVersion('1.1.9', hours(5)))).toEqual(['WIX_UPGRADE_DETECTED'])
    expect(detectedAs('0.1.0')).toEqual(['WIX_UPGRADE_DETECTED'])
    // The same version in the three fields compared: AllowSameVersionUpgrades.
    expect(detectedAs(version())).toEqual(['WIX_UPGRADE_DETECTED'])
    expect(detectedAs(msiVersion('1.2.3', new Date(builtAt.getTime() + 60_000)))).toEqual([
      'WIX_UPGRADE_DETECTED',
    ])
    expect(detectedAs(msiVersion('1.2.3', hours(1)))).toEqual(['WIX_DOWNGRADE_DETECTED'])
    expect(detectedAs('1.3.0')).toEqual(['WIX_DOWNGRADE_DETECTED'])
    const downgrade = byKey('Upgrade')
    expect(rows('Upgrade').find((r) => r.at(-1) === 'WIX_DOWNGRADE_DETECTED')?.[4]).toBe(String(256 + 2)) // only detect
    expect(downgrade.size).toBe(1) // one UpgradeCode
    const conditions = rows('LaunchCondition').map((r) => r[0])
    expect(conditions).toContain('Installed OR NOT WIX_DOWNGRADE_DETECTED')
  })

  test('a rebuild an hour later is another product that replaces this one', async () => {
    const later = join(dir.path, 'later.msi')
    const built = await buildMsi({ exe, out: later, version: '1.2.3', builtAt: hours(1), sign: null })
    expect(built.productVersion).toBe(msiVersion('1.2.3', hours(1)))
    const props = (file: string) =>
      new Map(
        msiinfo('export', file, 'Property')
          .split(/\r?\n/)
          .slice(3)
          .map((l) => l.split('\t') as [string, string]),
      )
    expect(props(later).get('ProductCode')).not.toBe(props(msi).get('ProductCode'))
    expect(props(later).get('UpgradeCode')).toBe(props(msi).get('UpgradeCode'))
    expect(compare(built.productVersion, version())).toBeGreaterThan(0)
    expect(nextBuild(built.productVersion)).toBe('1.2.10255')
    expect(nextBuild('1.2.65535.0')).toBe('1.3.0')
  })
})

describe('scripts/build-msi.ts', () => {
  test('fails with what to do when the program is missing (it never makes one up)', async () => {
    const missing = join(dir.path, 'nothing-here', 'deskhook.exe')
    await expect(buildMsi({ exe: missing, out: join(dir.path, 'never.msi') })).rejects.toThrow(
      /deskhook\.exe is missing: build the Windows agent first \(`bun run build` writes dist\/deskhook\.exe\)/,
    )
  })

  test('turns the package version and the build time into an MSI ProductVersion', () => {
    expect(msiVersion('0.1.0', new Date('2025-01-01T00:00:00Z'))).toBe('0.1.0.0')
    expect(msiVersion('1.4.2-beta.3', new Date('2025-01-02T01:00:59Z'))).toBe('1.4.25.59')
    expect(() => msiVersion('256.0.0')).toThrow(/cannot be an MSI ProductVersion/)
    expect(() => msiVersion('next')).toThrow(/cannot be an MSI ProductVersion/)
    expect(() => msiVersion('0.1.0', new Date('2033-01-01T00:00:00Z'))).toThrow(/no MSI build number/)
  })

  test('signing is asked for with DESKHOOK_SIGN_PFX (and its password), and off without it', () => {
    expect(signingFromEnv({})).toBeNull()
    expect(signingFromEnv({ DESKHOOK_SIGN_PFX: 'a.pfx', DESKHOOK_SIGN_PASSWORD: 'pw' })).toEqual({
      pfx: 'a.pfx',
      password: 'pw',
      timestampUrl: undefined,
    })
  })
})
