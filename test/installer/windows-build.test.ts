// The Windows artefacts, built here from a clean clone the way `bun run build` builds them: the
// UI Automation helper (C#, Debian's mcs), the agent for Windows x64 with the helper inside it
// (`bun build --compile --target=bun-windows-x64-baseline`; Bun fetches its Windows runtime from npm), and
// the per-user MSI around that exe (wixl), inspected with msitools. Windows itself cannot run
// here: whether the exe starts there is on agent-installer/WINDOWS-CHECKLIST.md.
import { afterAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildMsi } from '../../scripts/build-msi.ts'
import { HELPER_EXE } from '../../scripts/build-uia-helper.ts'
import { exeFacts, windowsFileVersion } from '../../scripts/windows-exe.ts'
import { VERSION } from '../../src/version.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { localAppData, wine } from './wine.ts'

const ROOT = join(import.meta.dir, '../..')
const dir = tempDir('deskhook-windows-build-')
afterAll(() => dir.remove())

async function run(args: string[]): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  return { code, output: `${out}${err}` }
}

test('the helper, the Windows agent with the helper inside, and the MSI around it are built', async () => {
  const helper = await run(['scripts/build-uia-helper.ts'])
  expect(helper.code, helper.output).toBe(0)
  const helperBytes = readFileSync(HELPER_EXE)
  // A .NET PE: "MZ", and the CLR's metadata signature "BSJB".
  expect(helperBytes.subarray(0, 2).toString()).toBe('MZ')
  expect(helperBytes.includes(Buffer.from('BSJB'))).toBe(true)

  const exe = join(dir.path, 'deskhook.exe')
  const agent = await run(['scripts/build-windows-agent.ts', '--outfile', exe])
  expect(agent.code, agent.output).toBe(0)
  const exeBytes = readFileSync(exe)
  expect(exeBytes.subarray(0, 2).toString()).toBe('MZ')
  // The helper travels inside the agent, byte for byte.
  expect(exeBytes.includes(helperBytes)).toBe(true)
  // For CPUs without AVX2, a GUI program (no console window), with deskhook's version and icon.
  expect(agent.output).toContain('bun-windows-x64-baseline')
  const facts = exeFacts(exeBytes)
  expect(facts.subsystem).toBe(2)
  expect(facts.strings).toMatchObject({
    ProductName: 'deskhook',
    CompanyName: 'deskhook',
    OriginalFilename: 'deskhook.exe',
  })
  expect(facts.fileVersion).toBe(windowsFileVersion(VERSION).join('.'))
  expect(facts.strings.ProductVersion).toBe(facts.fileVersion)
  expect(JSON.stringify(facts.strings)).not.toMatch(/Bun|Oven/)
  expect(facts.iconSizes).toEqual([16, 24, 32, 48, 64, 256])

  // It starts (under Wine): prints its version, and an agent that cannot go on says why in its
  // log file under %LOCALAPPDATA%\deskhook\logs, which is all a GUI program without a console has.
  const prefix = join(dir.path, 'wine')
  const version = await wine(exe, ['--version'], prefix)
  expect(version.code, version.stderr).toBe(0)
  expect(version.stdout.trim()).toBe(VERSION)
  const agentRun = await wine(exe, ['agent', '--server', 'http://127.0.0.1:9', '--token', 'dhe_x'], prefix)
  expect(agentRun.code).toBe(1)
  const logs = join(localAppData(prefix), 'deskhook', 'logs')
  const logged = readdirSync(logs)
    .map((f) => readFileSync(join(logs, f), 'utf8'))
    .join('')
  const lines = logged
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; err?: { code?: string } })
  // No .NET Framework in Wine here: the UI Automation helper cannot start, and the log says so.
  expect(lines.some((l) => l.msg === 'the windows driver cannot start')).toBe(true)

  const msi = await buildMsi({ exe, out: join(dir.path, 'deskhook-agent.msi') })
  expect(msi.bytes).toBeGreaterThan(1024 * 1024)
  const files = Bun.spawnSync(['msiinfo', 'export', msi.out, 'File'])
  expect(files.exitCode).toBe(0)
  expect(files.stdout.toString()).toContain('deskhook.exe')
  console.log(
    `artefacts: uia-helper.exe ${helperBytes.length} B, deskhook.exe ${statSync(exe).size} B, deskhook-agent.msi ${msi.bytes} B`,
  )
}, 600_000)
