import { splitEnrollmentToken } from '../../lib/tls-pin.ts'
import type { AgentExe } from './agent-exe.ts'
import installTemplate from './install.ps1' with { type: 'text' }
import type { InstallOptions } from './install-options.ts'
import uninstallTemplate from './uninstall.ps1' with { type: 'text' }

export const INSTALL_SCRIPT_PATH = '/_/agent/install.ps1'
export const UNINSTALL_SCRIPT_PATH = '/_/agent/uninstall.ps1'
export const AGENT_EXE_PATH = '/_/agent/deskhook.exe'
export const AGENT_SHA256_PATH = '/_/agent/deskhook.exe.sha256'

/**
 * The server's URL as the scripts and the agent use it: the normal form of the public URL, which
 * is ASCII (punycode host, percent-encoded path) and has no trailing slash.
 */
export function agentServerUrl(publicUrl: string): string {
  return new URL(publicUrl).href.replace(/\/+$/, '')
}

/**
 * The public URL names this machine only (no `--public-url`) while the PC asking is elsewhere:
 * an agent told to connect there would reach itself. The request's host decides nothing else.
 */
export function reachableOnlyHere(server: string, requestUrl: string): boolean {
  const local = (host: string) => /^(127\.|localhost$|\[::1\]$)/.test(host)
  return local(new URL(server).hostname) && !local(new URL(requestUrl).hostname)
}

/**
 * install.ps1 for this server. `pin`: the SHA-256 (hex) of the certificate the server's chain holds
 * and agents pin (its CA under `--tls auto`; src/tls/served-record.ts), null over http or when the
 * chain has no root to pin: the script then pins it for its own download of the agent.
 */
export function installScript(
  server: string,
  exe: AgentExe,
  options: InstallOptions,
  pin: string | null = null,
): string {
  return fill(installTemplate, {
    SERVER: psString(server),
    TOKEN: psString(options.token),
    SHA256: psString(exe.sha256),
    EXE_SIZE: String(exe.size),
    NAME: psString(options.name),
    START_URL: psString(options.startUrl),
    PIN: psString(pin ?? ''),
    PIN_CHECK: pin ? pinnedCertificateCheck(pin) : '$null',
    UNINSTALL_COMMAND: psString(windowsUninstallCommand(server, pin)),
  })
}

/**
 * A PowerShell script block for `[Net.ServicePointManager]::ServerCertificateValidationCallback`
 * (Windows PowerShell 5.1: Invoke-WebRequest and Invoke-RestMethod honour it) that accepts a server
 * the way the agent does (src/agent/server-certificate.ts): the chain Windows built from what the
 * server presented must hold the pinned certificate (SHA-256 of its DER bytes, as
 * src/lib/tls-pin.ts computes it), the host name must match, and the only fault allowed is that
 * Windows does not trust the root (the server's own CA). One line, for the dashboard's one-liner.
 */
export function pinnedCertificateCheck(pin: string): string {
  if (!/^[0-9a-f]{64}$/.test(pin)) throw new Error(`not a SHA-256 fingerprint: ${pin}`)
  return [
    '{ param($s, $c, $ch, $e)',
    // SslPolicyErrors: 1 = no certificate, 2 = the name does not match; 4 (chain) is looked at below.
    'if (($null -eq $c) -or ($null -eq $ch) -or (([int] $e -band 3) -ne 0)) { return $false };',
    "foreach ($st in $ch.ChainStatus) { if ($st.Status -ne 'UntrustedRoot') { return $false } };",
    '$sha = [Security.Cryptography.SHA256]::Create();',
    'foreach ($el in $ch.ChainElements) {',
    `if (([BitConverter]::ToString($sha.ComputeHash($el.Certificate.RawData)) -replace '-', '') -eq '${pin}') { return $true } };`,
    'return $false }',
  ].join(' ')
}

export function uninstallScript(server: string): string {
  return fill(uninstallTemplate, { SERVER: psString(server) })
}

/** `sha256sum`'s format, so `sha256sum -c` checks a download. */
export const sha256Line = (exe: AgentExe) => `${exe.sha256}  deskhook.exe\n`

/**
 * The PowerShell one-liner that installs the agent on a Windows PC with this token. Over http it
 * is `irm "…" | iex`. Over https it turns TLS 1.2 on first (Windows PowerShell 5.1 may not offer
 * it), and when the token pins the server's certificate (`dhe_…~<sha256>`, the server's own CA
 * that Windows does not trust) it fetches the script pinning that certificate, then puts the
 * session's own certificate check back before running it (install.ps1 pins again to download).
 */
export function windowsInstallCommand(
  server: string,
  token: string,
  form: { name: string; startUrl: string },
) {
  const query = [`token=${encodeURIComponent(token)}`]
  if (form.name) query.push(`name=${encodeURIComponent(form.name)}`)
  if (form.startUrl) query.push(`startUrl=${encodeURIComponent(form.startUrl)}`)
  const url = `${agentServerUrl(server)}${INSTALL_SCRIPT_PATH}?${query.join('&')}`
  return fetchAndRun(url, splitEnrollmentToken(token).pin ?? null)
}

/** The same for uninstall.ps1 (install.ps1 shows it when done), pinning what install.ps1 pinned. */
export function windowsUninstallCommand(server: string, pin: string | null): string {
  return fetchAndRun(`${agentServerUrl(server)}${UNINSTALL_SCRIPT_PATH}`, pin)
}

function fetchAndRun(url: string, pin: string | null): string {
  // Inside PowerShell's double quotes only ` $ and " are special (the URL has none of them today).
  const quoted = `"${url.replace(/[`$"]/g, '`$&')}"`
  if (!url.startsWith('https:')) return `irm ${quoted} | iex`
  const tls12 = '$t = [Net.ServicePointManager]; $t::SecurityProtocol = $t::SecurityProtocol -bor 3072;'
  if (!pin) return `& { ${tls12} iex (irm ${quoted}) }`
  return (
    `& { ${tls12} $o = $t::ServerCertificateValidationCallback; ` +
    `$t::ServerCertificateValidationCallback = ${pinnedCertificateCheck(pin)}; ` +
    `try { $x = irm ${quoted} } finally { $t::ServerCertificateValidationCallback = $o }; iex $x }`
  )
}

/** Fills `__DESKHOOK_<KEY>__` with PowerShell expressions; a placeholder left unfilled is a bug. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/__DESKHOOK_([A-Z0-9_]+)__/g, (_, key: string) => {
    const value = values[key]
    if (value === undefined) throw new Error(`installer template: nothing for __DESKHOOK_${key}__`)
    return value
  })
}

/**
 * A PowerShell expression for a string, in ASCII only: Windows PowerShell 5.1 reads a script file
 * without a BOM in the ANSI code page, and takes the typographic quotes (U+2018…U+201E) for quote
 * characters. Printable ASCII goes in single quotes ('' for '), anything else as [char] codes.
 */
export function psString(value: string): string {
  const parts: string[] = []
  let run = ''
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    if (unit >= 0x20 && unit < 0x7f) {
      run += unit === 0x27 ? "''" : value[i]
      continue
    }
    if (run || !parts.length) parts.push(`'${run}'`)
    run = ''
    parts.push(`[char]0x${unit.toString(16).padStart(4, '0').toUpperCase()}`)
  }
  if (run || !parts.length) parts.push(`'${run}'`)
  return parts.length === 1 ? parts[0]! : `(${parts.join(' + ')})`
}
