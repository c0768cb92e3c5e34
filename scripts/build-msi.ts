/**
 * Packs the Windows agent into a per-user MSI with Debian's wixl (apt-get install wixl).
 *   bun scripts/build-msi.ts                       dist/deskhook.exe → dist/deskhook-agent.msi
 *   bun scripts/build-msi.ts --exe X --out Y       another program or place
 * The MSI's source and what it does: agent-installer/deskhook-agent.wxs.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { VERSION } from '../src/version.ts'

const ROOT = join(import.meta.dir, '..')
export const WXS = join(ROOT, 'agent-installer', 'deskhook-agent.wxs')

export interface MsiBuild {
  /** The agent's program (deskhook.exe). */
  exe: string
  out: string
  /** Defaults to package.json's version. */
  version?: string
}

/** An MSI's ProductVersion is numeric major.minor.build (255.255.65535 at most). */
export function msiVersion(version: string): string {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  const [major, minor, build] = (match?.slice(1) ?? []).map(Number)
  if (
    major === undefined ||
    minor === undefined ||
    build === undefined ||
    major > 255 ||
    minor > 255 ||
    build > 65535
  )
    throw new Error(
      `version ${version} cannot be an MSI ProductVersion (major.minor.build, at most 255.255.65535)`,
    )
  return `${major}.${minor}.${build}`
}

/** Builds the MSI; throws with what to do when the program or wixl is missing. */
export async function buildMsi(build: MsiBuild): Promise<{ out: string; bytes: number }> {
  const exe = resolve(build.exe)
  const out = resolve(build.out)
  if (!existsSync(exe) || !statSync(exe).isFile())
    throw new Error(
      `${build.exe} is missing: build the Windows agent first (\`bun run build\` writes dist/deskhook.exe), ` +
        'or pass --exe with its path',
    )
  const wixl = Bun.which('wixl')
  if (!wixl) throw new Error('wixl is not installed: apt-get install -y wixl (Debian; msitools has msiinfo)')
  mkdirSync(dirname(out), { recursive: true })
  const args = [
    ...['-a', 'x64', '-o', out],
    ...['-D', `Version=${msiVersion(build.version ?? VERSION)}`],
    ...['-D', `AgentExe=${basename(exe)}`],
    WXS,
  ]
  // wixl looks a source file up by relative name in its working dir (and the .wxs file's).
  const proc = Bun.spawn([wixl, ...args], { cwd: dirname(exe), stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  if (code !== 0 || !existsSync(out))
    throw new Error(`wixl failed (exit ${code}):\n${`${stdout}${stderr}`.trim()}`)
  return { out, bytes: statSync(out).size }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { exe: { type: 'string' }, out: { type: 'string' } } })
  const started = performance.now()
  try {
    const { out, bytes } = await buildMsi({
      exe: values.exe ?? join(ROOT, 'dist', 'deskhook.exe'),
      out: values.out ?? join(ROOT, 'dist', 'deskhook-agent.msi'),
    })
    console.log(
      `built ${out} (${(bytes / 1048576).toFixed(1)} MiB) in ${Math.round(performance.now() - started)} ms`,
    )
  } catch (error) {
    console.error(`build-msi: ${(error as Error).message}`)
    process.exit(1)
  }
}
