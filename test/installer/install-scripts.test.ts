import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AGENT_DOWNLOAD_PATHS } from '../../src/http/public-paths.ts'
import {
  installScript,
  pinnedCertificateCheck,
  psString,
  uninstallScript,
  windowsInstallCommand,
} from '../../src/modules/agent-install/service.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { signIn } from '../helpers/dashboard.ts'
import { rawRequest } from '../helpers/raw-http.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { codeOnly, powershell51Problems } from './powershell-51.ts'

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
/** A PowerShell assignment in a served script, e.g. `$server = '…'`. */
const assigned = (script: string, name: string) =>
  new RegExp(`^\\s*\\$${name} = (.+)$`, 'm').exec(script)?.[1]?.trim()

let s: TestServer & { logs: string[] }
let exePath: string
/**
 * A stand-in for the agent's program: the server serves and hashes whatever bytes are there, so a
 * few made-up bytes (no real executable) exercise the downloads here.
 */
const standIn = new Uint8Array(256 * 1024).map((_, i) => (i * 31 + 7) % 251)
standIn.set([0x4d, 0x5a]) // "MZ", as a Windows program starts

beforeAll(async () => {
  s = await startTestServer()
  exePath = join(s.dataDir, 'agent', 'deskhook.exe')
})
afterAll(async () => {
  await s.close()
})

const get = (path: string) => s.call(path, { key: null })
const token = () => createEnrollmentToken(s.ctx).token

test('exactly the agent-install routes are public under /_/agent/ (no session, no key)', () => {
  const routes = s.routes.filter((r) => r.path.startsWith('/_/agent/')).map((r) => `${r.method} ${r.path}`)
  expect(routes.sort()).toEqual([...AGENT_DOWNLOAD_PATHS].map((p) => `GET ${p}`).sort())
})

describe('without the agent program on the server', () => {
  test('install.ps1 and the downloads answer 404 naming the build command and where to put it', async () => {
    for (const path of [
      `/_/agent/install.ps1?token=${token()}`,
      '/_/agent/deskhook.exe',
      '/_/agent/deskhook.exe.sha256',
    ]) {
      const res = await get(path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      const text = await res.text()
      expect(text).toContain('`bun run build`')
      expect(text).toContain('dist/deskhook.exe')
      expect(text).toContain('agent/deskhook.exe in its data dir')
      // Anyone may ask: the server's own paths are for its admins only.
      expect(text).not.toContain(s.dataDir)
    }
  })

  test("the dashboard's Connect a desktop names the exact place to put it", async () => {
    const admin = await signIn(s)
    const html = await (await admin.post('/_/desktops/connect', { name: '', startUrl: '' })).text()
    expect(html).toContain('is not on this server')
    expect(html).toContain(exePath)
  })

  test('uninstall.ps1 needs no program', async () => {
    const res = await get('/_/agent/uninstall.ps1')
    expect(res.status).toBe(200)
    expect(assigned(await res.text(), 'server')).toBe(`'${s.url}'`)
  })
})

describe('with the agent program in the data dir', () => {
  beforeAll(() => {
    mkdirSync(join(s.dataDir, 'agent'), { recursive: true })
    writeFileSync(exePath, standIn)
  })

  test('install.ps1 is public and templated with the server URL, the token and the SHA-256', async () => {
    const t = token()
    const res = await get(`/_/agent/install.ps1?token=${t}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const script = await res.text()
    expect(assigned(script, 'server')).toBe(`'${s.url}'`)
    expect(assigned(script, 'token')).toBe(`'${t}'`)
    expect(assigned(script, 'expectedSha256')).toBe(`'${sha256(standIn)}'`)
    expect(assigned(script, 'exeSize')).toBe(String(standIn.length))
    expect(assigned(script, 'desktopName')).toBe("''")
    expect(script).not.toContain('__DESKHOOK_')
    // The token travels in the request and the script only: never into the server's log.
    expect(s.logs.join('')).toContain('/_/agent/install.ps1')
    expect(s.logs.join('')).not.toContain(t)
  })

  test('a pinned token (https servers) is accepted; a token is optional (upgrade only)', async () => {
    const pinned = `${token()}~${'ab12'.repeat(16)}`
    const res = await get(`/_/agent/install.ps1?token=${encodeURIComponent(pinned)}`)
    expect(res.status).toBe(200)
    expect(assigned(await res.text(), 'token')).toBe(`'${pinned}'`)
    const bare = await get('/_/agent/install.ps1')
    expect(bare.status).toBe(200)
    expect(assigned(await bare.text(), 'token')).toBe("''")
  })

  test('a token of the wrong shape is refused with 400, and not repeated', async () => {
    const good = token()
    for (const bad of [
      'abc',
      good.slice(0, -1),
      `${good}x`,
      `${good}'; Remove-Item -Recurse C:\\; '`,
      `dh_${good.slice(4)}`,
      `${good}~${'AB12'.repeat(16)}`,
      `${good}~${'ab12'.repeat(15)}`,
    ]) {
      const res = await get(`/_/agent/install.ps1?token=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      const text = await res.text()
      expect(text).toContain('not an enrollment token')
      expect(text).not.toContain(bad)
    }
    expect((await get(`/_/agent/install.ps1?token=${good}&token=${good}`)).status).toBe(400)
  })

  test('name and startUrl go into the agent command line, as ASCII PowerShell strings', async () => {
    const name = 'Café Zoë 2'
    const url = `/_/agent/install.ps1?token=${token()}&name=${encodeURIComponent(name)}&startUrl=${encodeURIComponent('https://crm.lan/café?q=1')}`
    const script = await (await get(url)).text()
    expect(assigned(script, 'desktopName')).toBe(psString(name))
    expect(psString(name)).toBe("('Caf' + [char]0x00E9 + ' Zo' + [char]0x00EB + ' 2')")
    expect(assigned(script, 'startUrl')).toBe("'https://crm.lan/caf%C3%A9?q=1'")
    expect(powershell51Problems(script)).toEqual([])

    for (const [query, problem] of [
      ['name=bad%3Bname', 'The name may have'],
      ['startUrl=javascript%3Aalert(1)', 'startUrl must be an http(s) URL'],
      ['startUrl=https%3A%2F%2Fx%2F%22quoted%22', 'startUrl must be an http(s) URL'],
    ] as const) {
      const res = await get(`/_/agent/install.ps1?token=${token()}&${query}`)
      expect(res.status).toBe(400)
      expect(await res.text()).toContain(problem)
    }
  })

  test('the program downloads with the SHA-256 that install.ps1 and deskhook.exe.sha256 announce', async () => {
    const exe = await get('/_/agent/deskhook.exe')
    expect(exe.status).toBe(200)
    expect(exe.headers.get('content-type')).toBe('application/octet-stream')
    expect(exe.headers.get('content-disposition')).toBe('attachment; filename="deskhook.exe"')
    const bytes = new Uint8Array(await exe.arrayBuffer())
    expect(bytes).toEqual(standIn)
    const line = await (await get('/_/agent/deskhook.exe.sha256')).text()
    expect(line).toBe(`${sha256(bytes)}  deskhook.exe\n`)
    const script = await (await get(`/_/agent/install.ps1?token=${token()}`)).text()
    expect(assigned(script, 'expectedSha256')).toBe(`'${sha256(bytes)}'`)
  })

  test('a new program in place is announced with its own SHA-256', async () => {
    const newer = standIn.map((b) => b ^ 0x5a)
    writeFileSync(exePath, newer)
    try {
      expect(await (await get('/_/agent/deskhook.exe.sha256')).text()).toStartWith(sha256(newer))
      expect(new Uint8Array(await (await get('/_/agent/deskhook.exe')).arrayBuffer())).toEqual(newer)
    } finally {
      writeFileSync(exePath, standIn)
    }
  })

  test('a PC elsewhere is not sent to a server address that only works on the server', async () => {
    // No --public-url: the server's address is 127.0.0.1, which a PC asking as deskhook.lan cannot use.
    const path = `/_/agent/install.ps1?token=${token()}`
    const answer = await rawRequest(s.url, `GET ${path} HTTP/1.1\r\nHost: deskhook.lan\r\nConnection: close`)
    expect(answer.status).toBe(409)
    expect(answer.body).toContain('--public-url')
    expect((await get(path)).status).toBe(200)
  })

  test('the dashboard shows the Windows one-liner, and it fetches the script with that token', async () => {
    const admin = await signIn(s)
    const res = await admin.post('/_/desktops/connect', { name: 'front desk', startUrl: '' })
    expect(res.status).toBe(200)
    const html = (await res.text()).replaceAll('&quot;', '"').replaceAll('&amp;', '&')
    const command = /<pre>(irm "[^<]+" \| iex)<\/pre>/.exec(html)?.[1]
    expect(command).toBeDefined()
    const url = /^irm "([^"]+)" \| iex$/.exec(command!)?.[1]
    expect(url).toStartWith(`${s.url}/_/agent/install.ps1?token=dhe_`)
    const script = await (await fetch(url!)).text()
    expect(assigned(script, 'token')).toBe(`'${new URL(url!).searchParams.get('token')}'`)
    expect(assigned(script, 'desktopName')).toBe("'front desk'")
    expect(html).not.toContain('is not on this server')
  })

  test('strings go into the scripts as ASCII: typographic quotes, which PowerShell takes for quotes, as codes', () => {
    expect(psString("O'Brien’s “PC”")).toBe(
      "('O''Brien' + [char]0x2019 + 's ' + [char]0x201C + 'PC' + [char]0x201D)",
    )
    expect(psString('é')).toBe("('' + [char]0x00E9)")
    expect(psString('')).toBe("''")
    expect(powershell51Problems(`$n = ${psString('a’; Remove-Item x; ’😀')}`)).toEqual([])
  })

  test('the one-liner quotes what PowerShell would expand', () => {
    expect(windowsInstallCommand('http://x:8080/$a"b', 'dhe_t', { name: '', startUrl: '' })).toBe(
      'irm "http://x:8080/`$a%22b/_/agent/install.ps1?token=dhe_t" | iex',
    )
  })
})

describe('the one-liner and the scripts under TLS, and as SYSTEM (issue 22 item 5)', () => {
  const pin = 'ab12'.repeat(16)
  const exe = { path: 'deskhook.exe', size: 1, sha256: 'cd34'.repeat(16) }
  const options = { token: `dhe_${'x'.repeat(43)}~${pin}`, name: '', startUrl: '' }
  /** Where each text first appears in the script's code (comments and strings set aside). */
  const position = (script: string, text: string) => {
    const at = codeOnly(script).indexOf(text)
    if (at < 0) throw new Error(`not in the script's code: ${text}`)
    return at
  }

  test('over https the one-liner turns TLS 1.2 on before its download; with a pinned token it pins', () => {
    const form = { name: '', startUrl: '' }
    const bare = windowsInstallCommand('https://deskhook.lan:8443', 'dhe_t', form)
    expect(bare).toBe(
      '& { $t = [Net.ServicePointManager]; $t::SecurityProtocol = $t::SecurityProtocol -bor 3072; ' +
        'iex (irm "https://deskhook.lan:8443/_/agent/install.ps1?token=dhe_t") }',
    )
    const pinned = windowsInstallCommand('https://deskhook.lan:8443', `dhe_t~${pin}`, form)
    expect(pinned).toContain(pinnedCertificateCheck(pin))
    expect(pinned).toContain(`token=dhe_t~${pin}`)
    expect(pinned.indexOf('-bor 3072')).toBeLessThan(pinned.indexOf('irm '))
    for (const command of [bare, pinned]) expect(powershell51Problems(command)).toEqual([])
    // Over http there is nothing to pin or negotiate.
    expect(windowsInstallCommand('http://deskhook.lan:8080', 'dhe_t', form)).toBe(
      'irm "http://deskhook.lan:8080/_/agent/install.ps1?token=dhe_t" | iex',
    )
  })

  test("the pin check: the chain must hold the pin, the name must match, no fault but the root's trust", () => {
    const check = pinnedCertificateCheck(pin)
    expect(check).toStartWith('{ param($s, $c, $ch, $e)')
    expect(check).toEndWith('return $false }')
    expect(check).toContain('([int] $e -band 3) -ne 0)) { return $false }')
    expect(check).toContain("if ($st.Status -ne 'UntrustedRoot') { return $false }")
    expect(check).toContain(
      `$sha.ComputeHash($el.Certificate.RawData)) -replace '-', '') -eq '${pin}') { return $true }`,
    )
    expect(powershell51Problems(`$x = ${check}`)).toEqual([])
    // Only a fingerprint as the server makes them (src/lib/tls-pin.ts) goes into a script.
    expect(() => pinnedCertificateCheck(`${pin.slice(2)}'; x`)).toThrow(/not a SHA-256 fingerprint/)
    expect(() => pinnedCertificateCheck(pin.toUpperCase())).toThrow(/not a SHA-256 fingerprint/)
  })

  test('install.ps1: SYSTEM is refused before anything, TLS 1.2 before the download, the pin only around it', () => {
    const script = installScript('https://deskhook.lan:8443', exe, options, pin)
    expect(powershell51Problems(script)).toEqual([])
    const refuse = position(script, '$identity.IsSystem')
    expect(script).toContain("($identity.User.Value -eq 'S-1-5-18')")
    expect(script).toContain('Nothing was installed and the enrollment token was not used')
    for (const later of [
      'New-Item',
      'Invoke-WebRequest',
      'Set-Content',
      'Start-Process',
      'Register-ScheduledTask',
    ])
      expect(position(script, later)).toBeGreaterThan(refuse)
    const download = position(script, 'Invoke-WebRequest')
    expect(position(script, '-bor 3072')).toBeLessThan(download)
    expect(position(script, '::ServerCertificateValidationCallback = $pinCheck')).toBeLessThan(download)
    const restore = codeOnly(script).indexOf('::ServerCertificateValidationCallback = $trusted')
    expect(restore).toBeGreaterThan(download)
    expect(codeOnly(script).lastIndexOf('finally {', restore)).toBeGreaterThan(download)
    expect(assigned(script, 'pinCheck')).toBe(pinnedCertificateCheck(pin))
    expect(assigned(script, 'uninstallCommand')).toContain(psString(pinnedCertificateCheck(pin)).slice(1, 40))

    // Over http: no pin, no check, and the plain uninstall one-liner.
    const plain = installScript('http://deskhook.lan:8080', exe, { ...options, token: '' })
    expect(assigned(plain, 'pin')).toBe("''")
    expect(assigned(plain, 'pinCheck')).toBe('$null')
    expect(assigned(plain, 'uninstallCommand')).toBe(
      `'irm "http://deskhook.lan:8080/_/agent/uninstall.ps1" | iex'`,
    )
    expect(powershell51Problems(plain)).toEqual([])
  })

  test('uninstall.ps1: SYSTEM is refused before anything is removed; the HKCU key goes when empty', () => {
    const script = uninstallScript('http://deskhook.lan:8080')
    const refuse = position(script, '$identity.IsSystem')
    for (const later of [
      'Start-Process',
      'Unregister-ScheduledTask',
      'Remove-ItemProperty',
      'Remove-Item',
      'Stop-Process',
    ])
      expect(position(script, later)).toBeGreaterThan(refuse)
    expect(script).toContain('$productKey = Split-Path -Parent $msiKey')
    expect(script).toContain("$msiKey = 'HKCU:\\Software\\deskhook\\agent'")
  })
})

describe('the scripts suit Windows PowerShell 5.1', () => {
  test('install.ps1 and uninstall.ps1 as served', async () => {
    writeFileSync(exePath, standIn)
    const scripts = [
      await (await get(`/_/agent/install.ps1?token=${token()}&name=${encodeURIComponent('Zoë 2')}`)).text(),
      await (await get('/_/agent/install.ps1')).text(),
      await (await get('/_/agent/uninstall.ps1')).text(),
    ]
    for (const script of scripts) {
      expect(powershell51Problems(script)).toEqual([])
      expect(script.charCodeAt(0)).not.toBe(0xfeff)
      // One script block: `irm | iex` runs it whole, and nothing it defines leaks into the session.
      expect(codeOnly(script).trim()).toStartWith('& {')
      expect(codeOnly(script).trim()).toEndWith('}')
    }
  })

  test('the checks find each construct 5.1 lacks', () => {
    for (const bad of [
      '$a = $b ?? "x"',
      '$a = $b?.Name',
      '$a = $ok ? 1 : 2',
      'Get-Thing && Write-Host ok',
      'Get-Thing || throw "no"',
      '$t = @"\nhello\n"@',
      'Invoke-WebRequest -Uri $u -SkipCertificateCheck',
      '$j = ConvertFrom-Json $t -AsHashtable',
      'Write-Host "at $server: now"',
      "Write-Host 'caf\u00e9'",
      'if ($x) { exit 1 }',
      '& { if ($a) { 1 }',
    ])
      expect(powershell51Problems(bad).length).toBeGreaterThan(0)
    // Inside strings and comments these are text; "${y}:" is how to put a colon after a variable.
    const fine = `Write-Host 'a ? b && c' # what?\n$x = "$` + '{y}: ok"'
    expect(powershell51Problems(fine)).toEqual([])
  })
})
