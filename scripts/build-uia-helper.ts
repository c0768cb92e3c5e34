/**
 * Compiles the Windows UI Automation helper (src/agent/drivers/windows/helper/*.cs) with Debian's
 * Mono C# compiler into src/agent/drivers/windows/helper/bin/uia-helper.exe: a .NET Framework 4.x
 * executable that every Windows 10/11 runs as it is.
 *   bun scripts/build-uia-helper.ts              → the default output
 *   bun scripts/build-uia-helper.ts --out <file> → somewhere else
 * It is compiled against .NET Framework 4.8's reference assemblies (Mono's 4.8-api profile, in
 * Debian's mono-devel), not Mono's implementation assemblies, so it can only call what 4.8 has;
 * scripts/check-helper-il.ts proves that on the compiled IL, and the CLI build runs it.
 * Needs `mcs` (Debian: mono-mcs) and the reference assemblies (mono-devel).
 * Warnings are errors. Exits non-zero with the compiler's output when it fails.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'

export const HELPER_SOURCE_DIR = join(import.meta.dir, '../src/agent/drivers/windows/helper')
export const HELPER_EXE = join(HELPER_SOURCE_DIR, 'bin/uia-helper.exe')

/**
 * .NET Framework 4.8's API surface: Mono's 4.8-api profile, reference assemblies generated from the
 * framework's own (docs/windows-helper.md says where they come from). Compiling against Mono's
 * implementation assemblies (/usr/lib/mono/4.5) instead binds calls to members 4.8 lacks, e.g.
 * `s.Split('.')` to String.Split(char, StringSplitOptions), and Queue<T> to mscorlib, where 4.8
 * has it in System.dll.
 */
export const FRAMEWORK_REFERENCES = '/usr/lib/mono/4.8-api'
/**
 * The framework assemblies the helper may use: all of them part of .NET Framework 4.8 (the 4.8-api
 * folder also holds Mono's own, such as Mono.Posix, which a PC does not have).
 */
export const FRAMEWORK_ASSEMBLIES = ['mscorlib', 'System', 'System.Core', 'System.Drawing']
const REFERENCES = FRAMEWORK_ASSEMBLIES.map((name) => `${name}.dll`)

/** The sources the helper is built from (a fresh build is newer than all of them). */
export function helperSources(): string[] {
  return readdirSync(HELPER_SOURCE_DIR)
    .filter((name) => name.endsWith('.cs') || name === 'app.manifest')
    .sort()
    .map((name) => join(HELPER_SOURCE_DIR, name))
}

export function isFresh(exe = HELPER_EXE): boolean {
  if (!existsSync(exe)) return false
  const built = statSync(exe).mtimeMs
  return helperSources().every((source) => statSync(source).mtimeMs <= built)
}

/**
 * A Win32 resource file (.res) holding the manifest as RT_MANIFEST #1: mcs embeds .res files
 * (-win32res) but has no -win32manifest of its own.
 */
export function manifestResource(manifest: Uint8Array): Uint8Array {
  const header = (dataSize: number, type: number, name: number, language: number) => {
    const buffer = Buffer.alloc(32)
    buffer.writeUInt32LE(dataSize, 0)
    buffer.writeUInt32LE(32, 4) // header size
    buffer.writeUInt16LE(0xffff, 8)
    buffer.writeUInt16LE(type, 10)
    buffer.writeUInt16LE(0xffff, 12)
    buffer.writeUInt16LE(name, 14)
    buffer.writeUInt32LE(0, 16) // data version
    buffer.writeUInt16LE(0x1030, 20) // memory flags: moveable, pure, discardable
    buffer.writeUInt16LE(language, 22)
    buffer.writeUInt32LE(0, 24) // version
    buffer.writeUInt32LE(0, 28) // characteristics
    return buffer
  }
  const padding = Buffer.alloc((4 - (manifest.length % 4)) % 4)
  // A .res file starts with an empty entry; RT_MANIFEST is type 24, CREATEPROCESS_MANIFEST_RESOURCE_ID is 1.
  return Buffer.concat([
    header(0, 0, 0, 0),
    header(manifest.length, 24, 1, 0),
    Buffer.from(manifest),
    padding,
  ])
}

export interface BuildResult {
  exe: string
  bytes: number
  output: string
}

export async function buildUiaHelper(out = HELPER_EXE): Promise<BuildResult> {
  const mcs = Bun.which('mcs')
  if (!mcs) throw new Error('mcs is not installed: apt-get install -y mono-mcs mono-devel')
  for (const reference of REFERENCES)
    if (!existsSync(join(FRAMEWORK_REFERENCES, reference)))
      throw new Error(
        `${join(FRAMEWORK_REFERENCES, reference)} is missing (.NET Framework 4.8's reference assemblies): apt-get install -y mono-devel`,
      )
  mkdirSync(dirname(out), { recursive: true })
  const resource = `${out}.res`
  writeFileSync(resource, manifestResource(readFileSync(join(HELPER_SOURCE_DIR, 'app.manifest'))))
  const sources = helperSources().filter((path) => path.endsWith('.cs'))
  const args = [
    '-sdk:4.5',
    // Explicit references to the 4.8 reference set, not mcs's default (Mono's own assemblies);
    // their identities are .NET Framework's own (mscorlib 4.0.0.0, …).
    '-nostdlib',
    ...REFERENCES.map((reference) => `-r:${join(FRAMEWORK_REFERENCES, reference)}`),
    '-target:exe',
    '-platform:anycpu',
    '-optimize+',
    '-warnaserror+',
    '-codepage:utf8',
    `-win32res:${resource}`,
    `-out:${out}`,
    ...sources,
  ]
  const proc = Bun.spawn([mcs, ...args], { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]).finally(() => rmSync(resource, { force: true }))
  const output = `${stdout}${stderr}`.trim()
  if (code !== 0) throw new Error(`mcs failed (exit ${code}):\n${output}`)
  return { exe: out, bytes: statSync(out).size, output }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } })
  try {
    const started = performance.now()
    const { exe, bytes } = await buildUiaHelper(values.out ?? HELPER_EXE)
    console.log(
      `built ${exe}: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB) in ${Math.round(performance.now() - started)} ms`,
    )
    // What is shipped is proven against 4.8 too (a reference set that drifted would show here).
    const { checkHelperIl, describeMissing } = await import('./check-helper-il.ts')
    const check = await checkHelperIl(exe)
    if (check.missing.length > 0) {
      console.error(describeMissing(check))
      process.exit(1)
    }
    console.log(`IL check: all ${check.references.length} external references exist in .NET Framework 4.8`)
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}
