import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildMsi, signAuthenticode } from '../../scripts/build-msi.ts'
import { tempDir } from '../helpers/temp-dir.ts'

/**
 * Optional Authenticode signing with the admin's own certificate (issue 22 item 5), done by
 * scripts/build-msi.ts with Debian's osslsigncode. The certificate here is a throwaway self-signed
 * code-signing certificate made with openssl in this test's temp dir; the "exe" is a stand-in
 * (a minimal PE: osslsigncode signs only what parses as one).
 */
const dir = tempDir('deskhook-sign-')
const exe = join(dir.path, 'deskhook.exe')
const msi = join(dir.path, 'deskhook-agent.msi')
const cert = join(dir.path, 'signer.pem')
const pfx = join(dir.path, 'signer.pfx')
const password = 'correct horse'

function run(cmd: string[]): { code: number; output: string } {
  const proc = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' })
  return { code: proc.exitCode, output: `${proc.stdout.toString()}${proc.stderr.toString()}` }
}
const verify = (file: string) => run(['osslsigncode', 'verify', '-in', file, '-CAfile', cert])

/** The smallest PE32+ that osslsigncode accepts: DOS header, PE header, optional header, no sections. */
function minimalPe(): Uint8Array {
  const pe = Buffer.alloc(1024)
  pe.write('MZ', 0)
  pe.writeUInt32LE(0x80, 0x3c)
  pe.write('PE\0\0', 0x80)
  pe.writeUInt16LE(0x8664, 0x84) // x64
  pe.writeUInt16LE(0, 0x86) // sections
  pe.writeUInt16LE(240, 0x94) // size of the optional header
  pe.writeUInt16LE(0x22, 0x96) // executable, large address aware
  const opt = 0x98
  pe.writeUInt16LE(0x20b, opt) // PE32+
  pe.writeUInt32LE(0x200, opt + 32) // section alignment
  pe.writeUInt32LE(0x200, opt + 36) // file alignment
  pe.writeUInt32LE(0x400, opt + 56) // size of image
  pe.writeUInt32LE(0x200, opt + 60) // size of headers
  pe.writeUInt16LE(2, opt + 68) // GUI subsystem
  pe.writeUInt32LE(16, opt + 108) // data directories
  return pe
}

beforeAll(() => {
  const made = run([
    ...['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
    ...['-subj', '/CN=deskhook test signer', '-keyout', join(dir.path, 'signer.key'), '-out', cert],
    ...['-addext', 'extendedKeyUsage=codeSigning', '-addext', 'keyUsage=digitalSignature'],
  ])
  expect(made.code, made.output).toBe(0)
  const packed = run([
    ...['openssl', 'pkcs12', '-export', '-inkey', join(dir.path, 'signer.key'), '-in', cert],
    ...['-out', pfx, '-passout', `pass:${password}`],
  ])
  expect(packed.code, packed.output).toBe(0)
  writeFileSync(exe, minimalPe())
})
afterAll(() => dir.remove())

test('with a certificate, the exe is signed before it is packed and the MSI after; both verify', async () => {
  expect(verify(exe).code).not.toBe(0) // unsigned yet
  const built = await buildMsi({ exe, out: msi, version: '1.2.3', sign: { pfx, password } })
  expect(built.signed).toBe(true)
  for (const file of [exe, msi]) {
    const checked = verify(file)
    expect(checked.code, checked.output).toBe(0)
    expect(checked.output).toContain('Signature verification: ok')
    expect(checked.output).toContain('deskhook test signer')
  }
  // The MSI carries the signed exe, byte for byte.
  const out = join(dir.path, 'extracted')
  expect(run(['msiextract', '-C', out, msi]).code).toBe(0)
  expect(readFileSync(join(out, 'deskhook', 'deskhook.exe')).equals(readFileSync(exe))).toBe(true)
  // Signed again (a rebuild), the old signature is replaced, not nested.
  const once = verify(exe).output
  await signAuthenticode(exe, { pfx, password }, 'deskhook agent')
  const again = verify(exe)
  expect(again.code, again.output).toBe(0)
  const signatures = (text: string) => text.match(/Signature Index: /g)?.length ?? 0
  expect(signatures(once)).toBe(1)
  expect(signatures(again.output)).toBe(1)
}, 60_000)

test('a wrong password fails the build with osslsigncode saying why, and leaves the exe unchanged', async () => {
  const before = readFileSync(exe)
  await expect(
    buildMsi({ exe, out: join(dir.path, 'never.msi'), version: '1.2.3', sign: { pfx, password: 'wrong' } }),
  ).rejects.toThrow(/osslsigncode could not sign/)
  expect(readFileSync(exe).equals(before)).toBe(true)
})
