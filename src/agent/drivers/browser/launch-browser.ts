// Starts Chromium/Edge with its own throw-away profile and finds its DevTools WebSocket, or
// resolves the WebSocket of a browser someone else started.
import { existsSync, watch } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DriverError } from '../driver.ts'

export interface LaunchOptions {
  executablePath?: string
  headless?: boolean
  extraArgs?: string[]
  /** Viewport-sized window, so screenshots and bounds are the same on every machine. */
  windowSize?: { width: number; height: number }
  timeoutMs?: number
}

export interface LaunchedBrowser {
  wsUrl: string
  /** Ends the process (after the caller asked it to close politely) and deletes the profile. */
  dispose(): Promise<void>
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

export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executable = options.executablePath ?? defaultExecutablePath()
  const userDataDir = await mkdtemp(join(tmpdir(), 'deskhook-browser-'))
  const size = options.windowSize ?? { width: 1280, height: 800 }
  const args = [
    ...BASE_FLAGS,
    `--user-data-dir=${userDataDir}`,
    `--window-size=${size.width},${size.height}`,
    ...(options.headless === false ? [] : ['--headless']),
    ...(options.extraArgs ?? []),
    'about:blank',
  ]
  let child: ReturnType<typeof Bun.spawn<'ignore', 'ignore', 'pipe'>>
  try {
    child = Bun.spawn([executable, ...args], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true })
    throw new DriverError('LAUNCH_FAILED', `Cannot start ${executable}: ${(error as Error).message}`)
  }
  const stderrTail: string[] = []
  const dispose = async () => {
    child.kill()
    const forceKill = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await child.exited
    clearTimeout(forceKill)
    // Windows keeps profile files locked for a moment after exit.
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
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
    return { wsUrl, dispose }
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
