// The Windows artefacts, built here from a clean clone the way `bun run build` builds them: the
// UI Automation helper (C#, Debian's mcs), the agent for Windows x64 with the helper inside it
// (`bun build --compile --target=bun-windows-x64`; Bun fetches its Windows runtime from npm), and
// the per-user MSI around that exe (wixl), inspected with msitools. Windows itself cannot run
// here: whether the exe starts there is on agent-installer/WINDOWS-CHECKLIST.md.
import { afterAll, expect, test } from 'bun:test'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildMsi } from '../../scripts/build-msi.ts'
import { HELPER_EXE } from '../../scripts/build-uia-helper.ts'
import { tempDir } from '../helpers/temp-dir.ts'

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

  const msi = await buildMsi({ exe, out: join(dir.path, 'deskhook-agent.msi') })
  expect(msi.bytes).toBeGreaterThan(1024 * 1024)
  const files = Bun.spawnSync(['msiinfo', 'export', msi.out, 'File'])
  expect(files.exitCode).toBe(0)
  expect(files.stdout.toString()).toContain('deskhook.exe')
  console.log(
    `artefacts: uia-helper.exe ${helperBytes.length} B, deskhook.exe ${statSync(exe).size} B, deskhook-agent.msi ${msi.bytes} B`,
  )
}, 600_000)
