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

export function installScript(server: string, exe: AgentExe, options: InstallOptions): string {
  return fill(installTemplate, {
    SERVER: psString(server),
    TOKEN: psString(options.token),
    SHA256: psString(exe.sha256),
    EXE_SIZE: String(exe.size),
    NAME: psString(options.name),
    START_URL: psString(options.startUrl),
  })
}

export function uninstallScript(server: string): string {
  return fill(uninstallTemplate, { SERVER: psString(server) })
}

/** `sha256sum`'s format, so `sha256sum -c` checks a download. */
export const sha256Line = (exe: AgentExe) => `${exe.sha256}  deskhook.exe\n`

/** The PowerShell one-liner that installs the agent on a Windows PC with this token. */
export function windowsInstallCommand(
  server: string,
  token: string,
  form: { name: string; startUrl: string },
) {
  const query = [`token=${encodeURIComponent(token)}`]
  if (form.name) query.push(`name=${encodeURIComponent(form.name)}`)
  if (form.startUrl) query.push(`startUrl=${encodeURIComponent(form.startUrl)}`)
  const url = `${agentServerUrl(server)}${INSTALL_SCRIPT_PATH}?${query.join('&')}`
  // Inside PowerShell's double quotes only ` $ and " are special (the URL has none of them today).
  return `irm "${url.replace(/[`$"]/g, '`$&')}" | iex`
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
