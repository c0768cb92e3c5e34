// Starts Chromium/Edge with its own throw-away (or a kept) profile and finds its DevTools
// WebSocket, or resolves the WebSocket of a browser someone else started. A launched browser
// lives and dies with this process: its own process group, a parent-death signal on Linux, a
// kill on every exit path, and a PID file so a crashed agent's browser is cleaned up next start.
import { existsSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DriverError } from '../../../protocol/driver.ts'

export interface LaunchOptions {
  executablePath?: string
  headless?: boolean
  extraArgs?: string[]
  /** Viewport-sized window, so screenshots and bounds are the same on every machine. */
  windowSize?: { width: number; height: number }
  timeoutMs?: number
  /** Keep the profile here (cookies, sign-ins) instead of a throw-away one. */
  profileDir?: string
  /** Where the browser's PID is recorded, so a later start can end a browser left by a crash. */
  pidFile?: string
  /**
   * Host names the browser may resolve besides localhost; every other name resolves to nothing,
   * so an app (or the browser itself) can never reach outside hosts by name.
   */
  allowHosts?: string[]
  /**
   * Linux: the browser gets SIGKILL when this process dies (setpriv --pdeathsig). Off, or where
   * it is not available, a watchdog process does the same within a second or so.
   */
  parentDeathSignal?: boolean
}

export interface LaunchedBrowser {
  wsUrl: string
  pid: number
  userDataDir: string
  /**
   * Ends the process and deletes a throw-away profile. After asking the browser to close
   * politely, give it `graceMs` to exit by itself (it writes cookies and the profile on the way).
   */
  dispose(graceMs?: number): Promise<void>
}

// Flags that keep an automation browser quiet and deterministic: no first-run UI, no background
// downloads or sync, no GPU (servers and VMs rarely have one). Port 0 lets the OS pick the port.
export const QUIET_BROWSER_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-breakpad',
  '--no-pings',
  '--metrics-recording-only',
  '--safebrowsing-disable-auto-update',
  '--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
]
const BASE_FLAGS = [...QUIET_BROWSER_FLAGS, '--remote-debugging-port=0']

const KNOWN_BROWSERS: Partial<Record<NodeJS.Platform, string[]>> = {
  // Edge ships with every Windows PC; its folder depends on the Windows build.
  win32: [
    'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
  ],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
}

/** The first known browser installed on this machine (or the usual one, for the error message). */
export function defaultExecutablePath(platform: NodeJS.Platform = process.platform): string {
  const known = KNOWN_BROWSERS[platform] ?? KNOWN_BROWSERS.linux!
  return known.find((path) => existsSync(path)) ?? known[0]!
}

/** `--host-resolver-rules`: every name resolves to nothing except loopback and the given hosts. */
export function hostResolverRules(allowHosts: Iterable<string> = []): string {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]'])
  for (const host of allowHosts) if (host) hosts.add(host.toLowerCase())
  return `--host-resolver-rules=MAP * ~NOTFOUND, ${[...hosts].map((h) => `EXCLUDE ${h}`).join(', ')}`
}

/** Linux: own process group (setsid) and SIGKILL when the agent dies (setpriv --pdeathsig). */
function wrapper(parentDeathSignal: boolean): { prefix: string[]; pdeath: boolean } {
  if (process.platform !== 'linux') return { prefix: [], pdeath: false }
  const setpriv = parentDeathSignal
    ? ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p))
    : undefined
  const setsid = ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p))
  const prefix = [...(setpriv ? [setpriv, '--pdeathsig', 'SIGKILL', '--'] : []), ...(setsid ? [setsid] : [])]
  return { prefix, pdeath: setpriv !== undefined }
}

/**
 * Where no parent-death signal can be set (macOS, Linux without setpriv): a tiny shell that
 * checks every second whether this process still lives and, once it is gone (even by kill -9),
 * kills the browser's group. Stopped when the browser is disposed normally.
 */
function startWatchdog(browserPid: number, grouped: boolean): (() => void) | undefined {
  if (process.platform === 'win32' || !existsSync('/bin/sh')) return undefined
  const target = grouped ? `-${browserPid}` : String(browserPid)
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -KILL ${target} 2>/dev/null`
  try {
    const watchdog = Bun.spawn(['/bin/sh', '-c', script], {
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'ignore',
    })
    watchdog.unref()
    return () => watchdog.kill('SIGKILL')
  } catch {
    return undefined
  }
}

/** Browsers started by this process, killed (with their process group) however it exits. */
const live = new Map<number, { grouped: boolean }>()
let exitHookInstalled = false

function killTree(pid: number, grouped: boolean, signal: NodeJS.Signals): void {
  try {
    process.kill(grouped ? -pid : pid, signal)
  } catch {}
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // 'exit' runs synchronously on every normal or process.exit() path; signals end in process.exit.
  process.on('exit', () => {
    for (const [pid, { grouped }] of live) killTree(pid, grouped, 'SIGKILL')
  })
}

/**
 * Ends a browser an earlier, crashed run left behind: the PID file names it, and it is killed
 * only if that process really is a browser on the recorded profile (PIDs get reused).
 */
export function killLeftoverBrowser(pidFile: string): boolean {
  let recorded: { pid?: number; userDataDir?: string; temporary?: boolean }
  try {
    recorded = JSON.parse(readFileSync(pidFile, 'utf8'))
  } catch {
    return false
  }
  const { pid, userDataDir } = recorded
  let killed = false
  if (pid && userDataDir && isBrowserOnProfile(pid, userDataDir)) {
    killTree(pid, true, 'SIGKILL')
    killTree(pid, false, 'SIGKILL')
    killed = true
  }
  if (recorded.temporary && userDataDir) rmSync(userDataDir, { recursive: true, force: true })
  rmSync(pidFile, { force: true })
  return killed
}

function isBrowserOnProfile(pid: number, userDataDir: string): boolean {
  const command = commandLineOf(pid)
  if (!command || !/chrom|msedge/i.test(command.program)) return false
  const flag = `--user-data-dir=${userDataDir}`
  const at = command.args.indexOf(flag)
  // The whole flag, not a prefix of another profile's path.
  const next = command.args[at + flag.length]
  return at >= 0 && (next === undefined || next === ' ' || next === '"')
}

/** A process's program and arguments: /proc on Linux, `ps` on macOS, CIM on Windows (best effort). */
function commandLineOf(pid: number): { program: string; args: string } | undefined {
  try {
    if (process.platform === 'linux') {
      const parts = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
      return { program: parts[0] ?? '', args: parts.join(' ') }
    }
    const command =
      process.platform === 'win32'
        ? [
            'powershell',
            '-NoProfile',
            '-Command',
            `(Get-CimInstance Win32_Process -Filter 'ProcessId=${pid}').CommandLine`,
          ]
        : ['ps', '-ww', '-o', 'command=', '-p', String(pid)]
    const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'ignore' })
    const line = result.stdout.toString().trim()
    return line ? { program: line.split(/\s--/)[0] ?? line, args: line } : undefined
  } catch {
    return undefined
  }
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executable = options.executablePath ?? defaultExecutablePath()
  if (options.pidFile) killLeftoverBrowser(options.pidFile)
  const temporary = !options.profileDir
  const userDataDir = options.profileDir ?? (await mkdtemp(join(tmpdir(), 'deskhook-browser-')))
  if (options.profileDir) {
    await mkdir(options.profileDir, { recursive: true })
    // A kept profile still holds the previous browser's port file: it must not be read as ours.
    rmSync(join(userDataDir, 'DevToolsActivePort'), { force: true })
  }
  const size = options.windowSize ?? { width: 1280, height: 800 }
  const args = [
    ...BASE_FLAGS,
    `--user-data-dir=${userDataDir}`,
    `--window-size=${size.width},${size.height}`,
    hostResolverRules(options.allowHosts),
    ...(options.headless === false ? [] : ['--headless']),
    ...(options.extraArgs ?? []),
    'about:blank',
  ]
  const removeProfile = () =>
    temporary
      ? // Windows keeps profile files locked for a moment after exit.
        rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
      : Promise.resolve()
  const { prefix, pdeath } = wrapper(options.parentDeathSignal !== false)
  const grouped = prefix.some((p) => p.endsWith('setsid'))
  let child: ReturnType<typeof Bun.spawn<'ignore', 'ignore', 'pipe'>>
  try {
    child = Bun.spawn([...prefix, executable, ...args], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
  } catch (error) {
    await removeProfile()
    throw new DriverError('LAUNCH_FAILED', `Cannot start ${executable}: ${(error as Error).message}`)
  }
  const pid = child.pid
  const stopWatchdog = pdeath ? undefined : startWatchdog(pid, grouped)
  installExitHook()
  live.set(pid, { grouped })
  if (options.pidFile) writeFileSync(options.pidFile, JSON.stringify({ pid, userDataDir, temporary }))
  const stderrTail: string[] = []
  const dispose = async (graceMs = 0) => {
    if (graceMs > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([child.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
      clearTimeout(timer)
    }
    killTree(pid, grouped, 'SIGTERM')
    const forceKill = setTimeout(() => killTree(pid, grouped, 'SIGKILL'), 5_000)
    await child.exited
    clearTimeout(forceKill)
    // Helpers (renderers, zygote) of the group that outlived the browser go too.
    killTree(pid, grouped, 'SIGKILL')
    stopWatchdog?.()
    live.delete(pid)
    if (options.pidFile) rmSync(options.pidFile, { force: true })
    await removeProfile()
  }
  const portFile = readWsUrlFromPortFile(userDataDir)
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const wsUrl = await Promise.race([
      readWsUrlFromStderr(child.stderr, stderrTail),
      portFile.url,
      child.exited.then((code) => {
        throw new DriverError('LAUNCH_FAILED', `${executable} exited with ${code}: ${stderrTail.join('\n')}`)
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new DriverError(
                'LAUNCH_FAILED',
                `${executable} did not open DevTools: ${stderrTail.join('\n')}`,
              ),
            ),
          options.timeoutMs ?? 30_000,
        )
      }),
    ])
    return { wsUrl, pid, userDataDir, dispose }
  } catch (error) {
    await dispose()
    throw error
  } finally {
    clearTimeout(timer)
    portFile.stop()
  }
}

/** Chromium prints "DevTools listening on ws://…" on stderr; keep draining afterwards so it never blocks on a full pipe. */
async function readWsUrlFromStderr(stream: ReadableStream<Uint8Array>, tail: string[]): Promise<string> {
  const decoder = new TextDecoder()
  let buffer = ''
  let found: ((url: string) => void) | undefined
  const result = new Promise<string>((resolve) => {
    found = resolve
  })
  void (async () => {
    const reader = stream.getReader()
    for (;;) {
      const { done, value: chunk } = await reader.read()
      if (done) break
      buffer += decoder.decode(chunk, { stream: true })
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        tail.push(line)
        if (tail.length > 20) tail.shift()
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(line)
        if (match?.[1]) found?.(match[1])
      }
    }
  })().catch(() => {})
  return result
}

/** Chromium also writes port and path to <profile>/DevToolsActivePort (the only source when stderr is not a console, as on Windows). */
function readWsUrlFromPortFile(userDataDir: string): { url: Promise<string>; stop: () => void } {
  const watcher = watch(userDataDir)
  const url = new Promise<string>((resolve) => {
    const tryRead = async () => {
      const text = await readFile(join(userDataDir, 'DevToolsActivePort'), 'utf8').catch(() => '')
      const [port, path] = text.split('\n')
      if (port && path) resolve(`ws://127.0.0.1:${port.trim()}${path.trim()}`)
    }
    watcher.on('change', (_event, file) => {
      if (file === 'DevToolsActivePort') void tryRead()
    })
    void tryRead()
  })
  return { url, stop: () => watcher.close() }
}

/** Accepts a ws:// URL as is, or an http://host:port DevTools address (asks /json/version for the socket). */
export async function resolveDevtoolsUrl(url: string): Promise<string> {
  if (url.startsWith('ws://') || url.startsWith('wss://')) return url
  const response = await fetch(new URL('/json/version', url)).catch((error: Error) => {
    throw new DriverError('DISCONNECTED', `No DevTools at ${url}: ${error.message}`)
  })
  if (!response.ok) throw new DriverError('DISCONNECTED', `No DevTools at ${url}: HTTP ${response.status}`)
  const body = (await response.json()) as { webSocketDebuggerUrl?: string }
  if (!body.webSocketDebuggerUrl)
    throw new DriverError('DISCONNECTED', `${url} did not report a DevTools socket`)
  return body.webSocketDebuggerUrl
}
