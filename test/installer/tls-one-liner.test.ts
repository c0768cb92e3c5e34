import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash, X509Certificate } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { windowsInstallCommand } from '../../src/modules/agent-install/service.ts'
import { cli } from '../helpers/cli.ts'
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { powershell51Problems } from './powershell-51.ts'

/**
 * Issue 22 item 5: the Windows one-liner against `deskhook serve --tls auto`, whose CA Windows does
 * not trust. A real server process; the PC's side is done here the way the script block of
 * pinnedCertificateCheck (service.ts) does it on Windows: hash every certificate of the chain the
 * server presents, as `[BitConverter]::ToString(SHA256(RawData)) -replace '-', ''` writes it
 * (upper-case hex), and compare it with the pin (PowerShell's -eq ignores case).
 */
const data = tempDir('deskhook-tls-installer-')
let server: ServerProcess
const standIn = new Uint8Array(96 * 1024).map((_, i) => (i * 7 + 3) % 253)
standIn.set([0x4d, 0x5a])
/** A PowerShell assignment in a served script, e.g. `$pin = '…'`. */
const assigned = (script: string, name: string) =>
  new RegExp(`^\\s*\\$${name} = (.+)$`, 'm').exec(script)?.[1]?.trim()

beforeAll(async () => {
  mkdirSync(join(data.path, 'agent'), { recursive: true })
  writeFileSync(join(data.path, 'agent', 'deskhook.exe'), standIn)
  server = await startServerProcess(data.path, ['--tls', 'auto'])
}, 30_000)
afterAll(async () => {
  server?.proc.kill('SIGTERM')
  await server?.proc.exited
  data.remove()
})

/** What Windows would hand the validation callback: the chain the server presents, as DER. */
function presentedChain(url: string): Promise<Uint8Array[]> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const chain: Uint8Array[] = []
      let cert = socket.getPeerCertificate(true)
      while (cert?.raw && !chain.some((c) => Buffer.from(c).equals(cert.raw))) {
        chain.push(cert.raw)
        cert = cert.issuerCertificate
      }
      socket.destroy()
      resolve(chain)
    })
    socket.once('error', reject)
  })
}
/** `[BitConverter]::ToString($sha.ComputeHash($el.Certificate.RawData)) -replace '-', ''`. */
const windowsHash = (der: Uint8Array) => createHash('sha256').update(der).digest('hex').toUpperCase()

test('the token, the one-liner and install.ps1 pin the CA the server presents, in the format Windows computes', async () => {
  expect(server.url).toStartWith('https://')
  const { token, fingerprint } = JSON.parse(
    (await cli(['desktops', 'token', '--json', '--data', data.path])).stdout,
  ) as { token: string; fingerprint: string }
  const pin = token.split('~')[1]!
  expect(pin).toBe(fingerprint)

  // 1. The one-liner: TLS 1.2 and the pin before its one download, and the session's check put back.
  const command = windowsInstallCommand(server.url, token, { name: '', startUrl: '' })
  expect(powershell51Problems(command)).toEqual([])
  expect(command).toContain(`-eq '${pin}'`)
  const at = (text: string) => command.indexOf(text)
  expect(at('-bor 3072')).toBeGreaterThan(0)
  expect(at('-bor 3072')).toBeLessThan(at('irm '))
  expect(at('$t::ServerCertificateValidationCallback = {')).toBeLessThan(at('irm '))
  expect(at('finally { $t::ServerCertificateValidationCallback = $o }')).toBeGreaterThan(at('irm '))
  expect(at('iex $x')).toBeGreaterThan(at('finally'))

  // 2. The chain the server presents holds the pinned certificate: its CA, which Windows does not trust.
  const chain = await presentedChain(server.url)
  expect(chain.length).toBe(2)
  expect(chain.map(windowsHash).filter((h) => h.toLowerCase() === pin)).toHaveLength(1)
  const ca = new X509Certificate(Buffer.from(chain.find((c) => windowsHash(c).toLowerCase() === pin)!))
  expect(ca.ca).toBe(true)
  expect(ca.raw.equals(new X509Certificate(readFileSync(join(data.path, 'tls', 'ca.pem'))).raw)).toBe(true)
  // Trusting nothing but the system's roots, as Windows does, the script cannot be fetched at all.
  const url = /irm "([^"]+)"/.exec(command)![1]!
  await expect(fetch(url)).rejects.toThrow()

  // 3. Trusting the pinned certificate alone (and checking the host name), as the script block does.
  const pinned = { tls: { ca: ca.toString() } }
  const script = await (await fetch(url, pinned)).text()
  expect(assigned(script, 'token')).toBe(`'${token}'`)
  expect(assigned(script, 'pin')).toBe(`'${pin}'`)
  expect(assigned(script, 'pinCheck')).toContain(`-eq '${pin}'`)
  expect(powershell51Problems(script)).toEqual([])
  // install.ps1 tells how to remove the agent with a command that pins the same certificate.
  expect(assigned(script, 'uninstallCommand')).toContain(`-eq ''${pin}''`)
  expect(assigned(script, 'uninstallCommand')).toContain('/_/agent/uninstall.ps1')

  // 4. The agent downloads over the same pinned connection, with the SHA-256 the script announces.
  const exe = new Uint8Array(await (await fetch(`${server.url}/_/agent/deskhook.exe`, pinned)).arrayBuffer())
  expect(exe).toEqual(standIn)
  expect(assigned(script, 'expectedSha256')).toBe(`'${createHash('sha256').update(exe).digest('hex')}'`)
}, 60_000)
