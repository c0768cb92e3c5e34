// Stamping the Windows exe (scripts/windows-exe.ts): Bun writes a Windows exe's version resource
// and icon only when it runs on Windows, so the build sets them afterwards. Checked on a small
// program compiled for Windows here (Bun fetches its Windows runtime from npm the first time);
// whether Windows runs the result is on agent-installer/WINDOWS-CHECKLIST.md.
import { afterAll, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { exeFacts, stampExe, windowsFileVersion } from '../../scripts/windows-exe.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const dir = tempDir('deskhook-windows-exe-')
afterAll(() => dir.remove())

/** Each section's name and bytes, from the PE headers. */
function sections(bytes: Uint8Array): Map<string, Buffer> {
  const buffer = Buffer.from(bytes)
  const pe = buffer.readUInt32LE(0x3c)
  const count = buffer.readUInt16LE(pe + 6)
  const table = pe + 24 + buffer.readUInt16LE(pe + 20)
  const found = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    const at = table + i * 40
    const name = buffer
      .subarray(at, at + 8)
      .toString('latin1')
      .replace(/\0+$/, '')
    const size = buffer.readUInt32LE(at + 16)
    const pointer = buffer.readUInt32LE(at + 20)
    found.set(`${i}:${name}`, buffer.subarray(pointer, pointer + size))
  }
  return found
}

test("deskhook's version and icon replace the runtime's; the code and the bundle stay byte for byte", async () => {
  const source = join(dir.path, 'hello.ts')
  writeFileSync(source, 'console.log("hello from deskhook")\n')
  const out = join(dir.path, 'hello.exe')
  const build = Bun.spawnSync(
    [
      process.execPath,
      'build',
      '--compile',
      '--target=bun-windows-x64-baseline',
      '--windows-hide-console',
      source,
      '--outfile',
      out,
    ],
    { stderr: 'pipe', stdout: 'pipe' },
  )
  expect(build.exitCode, build.stderr.toString()).toBe(0)
  // A Buffer, as the build reads it: stamping must not touch the bytes it was given.
  const built = readFileSync(out)
  const copy = Buffer.from(built)
  const before = exeFacts(built)
  expect(before.subsystem).toBe(2)
  expect(before.strings.ProductName).toBe('Bun')

  const icon = readFileSync(join(import.meta.dir, '../../scripts/windows/deskhook.ico'))
  const stamped = stampExe(built, {
    version: windowsFileVersion('0.1.0', 321),
    productName: 'deskhook',
    companyName: 'deskhook',
    description: 'deskhook agent',
    copyright: 'deskhook',
    originalFilename: 'deskhook.exe',
    icon,
  })
  expect(built.equals(copy)).toBe(true)
  const after = exeFacts(stamped)
  expect(after.subsystem).toBe(2)
  expect(after.fileVersion).toBe('0.1.0.321')
  expect(after.strings).toEqual({
    CompanyName: 'deskhook',
    FileDescription: 'deskhook agent',
    FileVersion: '0.1.0.321',
    InternalName: 'deskhook',
    LegalCopyright: 'deskhook',
    OriginalFilename: 'deskhook.exe',
    ProductName: 'deskhook',
    ProductVersion: '0.1.0.321',
  })
  expect(after.iconSizes).toEqual([16, 24, 32, 48, 64, 256])
  // The same sections in the same order; all but the resources (and the relocations, which move
  // with them) unchanged, the bundle (.bun, put back after them) included.
  const old = sections(built)
  const now = sections(stamped)
  expect([...now.keys()]).toEqual([...old.keys()])
  for (const [key, bytes] of old) {
    if (key.endsWith(':.rsrc')) continue
    expect(now.get(key)!.equals(bytes), key).toBe(true)
  }
  expect(after.sections.at(-1)).toBe('.bun')
}, 120_000)

test('a version part above 65535 or a bad build number is refused', () => {
  expect(() => windowsFileVersion('0.1.0', 70_000)).toThrow('above 65535')
  expect(() => windowsFileVersion('one', 1)).toThrow('not major.minor.patch')
})
