/**
 * Packs the Windows agent into a per-user MSI with Debian's wixl (apt-get install wixl).
 *   bun scripts/build-msi.ts                       dist/deskhook.exe → dist/deskhook-agent.msi
 *   bun scripts/build-msi.ts --exe X --out Y       another program or place
 * With DESKHOOK_SIGN_PFX (a PKCS#12 file with the admin's code-signing certificate and key) and
 * DESKHOOK_SIGN_PASSWORD, it signs the exe (in place, before packing it, so the server hands out
 * the signed one too) and the MSI with Authenticode, using Debian's osslsigncode;
 * DESKHOOK_SIGN_TIMESTAMP adds a timestamp server's countersignature (an RFC 3161 URL). The
 * MSI's source and what it does: agent-installer/deskhook-agent.wxs.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { VERSION } from '../src/version.ts'

const ROOT = join(import.meta.dir, '..')
export const WXS = join(ROOT, 'agent-installer', 'deskhook-agent.wxs')
/** Installed beside the agent and run by the MSI's StartAgent action. */
export const STARTUP_SCRIPT = 'agent-startup.ps1'

export interface Signing {
  /** PKCS#12 (.pfx/.p12) with the certificate, its chain and the private key. */
  pfx: string
  password?: string
  /** An RFC 3161 timestamp server's URL; none by default (signing then needs no network). */
  timestampUrl?: string
}

export interface MsiBuild {
  /** The agent's program (deskhook.exe). */
  exe: string
  out: string
  /** Defaults to package.json's version. */
  version?: string
  /** When the build is made: part of its ProductVersion (default: now). */
  builtAt?: Date
  /** Authenticode-sign the exe and the MSI (default: from DESKHOOK_SIGN_PFX, none without it). */
  sign?: Signing | null
}

/** Build numbers count hours from here: 65535 of them reach into 2032. */
const BUILD_EPOCH = Date.UTC(2025, 0, 1)

/**
 * The MSI's ProductVersion: the package's major.minor, then the hours since 2025 and the second in
 * that hour when built. Windows Installer compares only the first three fields (major ≤ 255,
 * minor ≤ 255, build ≤ 65535) when it upgrades, so the third must grow with every build: a later
 * build of the same package version replaces the earlier one instead of installing beside it (and
 * two builds in one hour compare equal, which the Upgrade table's inclusive maximum also replaces).
 * The fourth field only tells builds apart where people read the version.
 */
export function msiVersion(version: string, builtAt: Date = new Date()): string {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  const [major, minor] = (match?.slice(1) ?? []).map(Number)
  if (major === undefined || minor === undefined || major > 255 || minor > 255)
    throw new Error(
      `version ${version} cannot be an MSI ProductVersion (major.minor.build, at most 255.255.65535)`,
    )
  const since = builtAt.getTime() - BUILD_EPOCH
  const hours = Math.floor(since / 3_600_000)
  if (hours < 0 || hours > 65535)
    throw new Error(`a build made at ${builtAt.toISOString()} has no MSI build number (2025 to mid-2032)`)
  return `${major}.${minor}.${hours}.${Math.floor((since % 3_600_000) / 1000)}`
}

/**
 * The lowest version a later build can have, as Windows Installer compares them (three fields):
 * the Upgrade table's exclusive bound that takes in every build of this version (wxs).
 */
export function nextBuild(productVersion: string): string {
  const [major, minor, build] = productVersion.split('.').map(Number) as [number, number, number]
  return build < 65535 ? `${major}.${minor}.${build + 1}` : `${major}.${minor + 1}.0`
}

/** The signing the environment asks for: DESKHOOK_SIGN_PFX, DESKHOOK_SIGN_PASSWORD, DESKHOOK_SIGN_TIMESTAMP. */
export function signingFromEnv(env: Record<string, string | undefined> = process.env): Signing | null {
  if (!env.DESKHOOK_SIGN_PFX) return null
  return {
    pfx: env.DESKHOOK_SIGN_PFX,
    password: env.DESKHOOK_SIGN_PASSWORD,
    timestampUrl: env.DESKHOOK_SIGN_TIMESTAMP || undefined,
  }
}

/**
 * Signs a PE (.exe) or an MSI with Authenticode (SHA-256), replacing any signature it had. The
 * password goes to osslsigncode on stdin, never on its command line.
 */
export async function signAuthenticode(file: string, signing: Signing, description: string): Promise<void> {
  const osslsigncode = Bun.which('osslsigncode')
  if (!osslsigncode)
    throw new Error(
      'osslsigncode is not installed: apt-get install -y osslsigncode (or bun scripts/ensure-windows-tools.ts)',
    )
  if (!existsSync(signing.pfx)) throw new Error(`DESKHOOK_SIGN_PFX: ${signing.pfx} does not exist`)
  const signed = `${file}.signed`
  rmSync(signed, { force: true })
  const args = ['sign', '-pkcs12', resolve(signing.pfx), '-readpass', '-', '-h', 'sha256', '-n', description]
  if (signing.timestampUrl) args.push('-ts', signing.timestampUrl)
  args.push('-in', file, '-out', signed)
  const proc = Bun.spawn([osslsigncode, ...args], { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
  proc.stdin.write(signing.password ?? '')
  await proc.stdin.end()
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  if (code !== 0 || !existsSync(signed)) {
    rmSync(signed, { force: true })
    throw new Error(`osslsigncode could not sign ${file} (exit ${code}):\n${`${stdout}${stderr}`.trim()}`)
  }
  renameSync(signed, file)
}

/** powershell.exe's -EncodedCommand: the command as UTF-16LE, in base64. */
export function encodedCommand(command: string): string {
  return Buffer.from(command, 'utf16le').toString('base64')
}

/** What the MSI's StartAgent action runs: agent-startup.ps1 as installed, read and run as text. */
export const STARTUP_COMMAND = `iex (gc -Raw "$env:LOCALAPPDATA\\deskhook\\${STARTUP_SCRIPT}")`

/** Builds the MSI; throws with what to do when the program or wixl is missing. */
export async function buildMsi(
  build: MsiBuild,
): Promise<{ out: string; bytes: number; productVersion: string; signed: boolean }> {
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
  const version = build.version ?? VERSION
  const builtAt = build.builtAt ?? new Date()
  const productVersion = msiVersion(version, builtAt)
  const signing = build.sign === undefined ? signingFromEnv() : build.sign
  if (signing) await signAuthenticode(exe, signing, 'deskhook agent')
  const args = [
    ...['-a', 'x64', '-o', out],
    ...['-D', `Version=${productVersion}`],
    ...['-D', `UpgradeBelow=${nextBuild(productVersion)}`],
    ...['-D', `BuildDescription=deskhook ${version}, built ${builtAt.toISOString().slice(0, 19)}Z`],
    ...['-D', `StartupCommand=${encodedCommand(STARTUP_COMMAND)}`],
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
  if (signing) await signAuthenticode(out, signing, 'deskhook agent installer')
  return { out, bytes: statSync(out).size, productVersion, signed: signing !== null }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { exe: { type: 'string' }, out: { type: 'string' } } })
  const started = performance.now()
  try {
    const { out, bytes, productVersion, signed } = await buildMsi({
      exe: values.exe ?? join(ROOT, 'dist', 'deskhook.exe'),
      out: values.out ?? join(ROOT, 'dist', 'deskhook-agent.msi'),
    })
    console.log(
      `built ${out} (${(bytes / 1048576).toFixed(1)} MiB, ProductVersion ${productVersion}${signed ? ', exe and MSI signed' : ''}) ` +
        `in ${Math.round(performance.now() - started)} ms`,
    )
  } catch (error) {
    console.error(`build-msi: ${(error as Error).message}`)
    process.exit(1)
  }
}
