/**
 * Compiles the Windows UI Automation helper (src/agent/drivers/windows/helper/*.cs) with Debian's
 * Mono C# compiler into src/agent/drivers/windows/helper/bin/uia-helper.exe: a .NET Framework 4.x
 * executable that every Windows 10/11 runs as it is.
 *   bun scripts/build-uia-helper.ts              → the default output
 *   bun scripts/build-uia-helper.ts --out <file> → somewhere else
 * Needs `mcs` (Debian: mono-mcs) and the System.Drawing reference (libmono-system-drawing4.0-cil).
 * Warnings are errors. Exits non-zero with the compiler's output when it fails.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'

export const HELPER_SOURCE_DIR = join(import.meta.dir, '../src/agent/drivers/windows/helper')
export const HELPER_EXE = join(HELPER_SOURCE_DIR, 'bin/uia-helper.exe')

/** Debian's mono ships implementation assemblies here; it has no 4.5-api reference set. */
const MONO_LIB = '/usr/lib/mono/4.5'
const REFERENCES = ['mscorlib.dll', 'System.dll', 'System.Core.dll', 'System.Drawing.dll']

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
  if (!mcs) throw new Error('mcs is not installed: apt-get install -y mono-mcs libmono-system-drawing4.0-cil')
  for (const reference of REFERENCES)
    if (!existsSync(join(MONO_LIB, reference)))
      throw new Error(
        `${join(MONO_LIB, reference)} is missing: apt-get install -y libmono-system-drawing4.0-cil`,
      )
  mkdirSync(dirname(out), { recursive: true })
  const resource = `${out}.res`
  writeFileSync(resource, manifestResource(readFileSync(join(HELPER_SOURCE_DIR, 'app.manifest'))))
  const sources = helperSources().filter((path) => path.endsWith('.cs'))
  const args = [
    '-sdk:4.5',
    // Explicit references instead of the SDK's reference set, which Debian does not ship (mcs
    // would warn CS8001, an error here); the assemblies' identities are .NET Framework's own.
    '-nostdlib',
    ...REFERENCES.map((reference) => `-r:${join(MONO_LIB, reference)}`),
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
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}
