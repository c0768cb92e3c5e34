import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { tempDir } from './temp-dir.ts'

const MAIN = join(import.meta.dir, '../../src/main.ts')

export interface AgentProcess {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  stateDir: string
  /** Every stderr line so far (the agent logs JSON lines there). */
  lines: string[]
  /** Resolves with the first log line (parsed) that satisfies `match`, waiting for it to be written. */
  waitForLog(
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>
  exited: Promise<number>
  kill(signal?: NodeJS.Signals): Promise<number>
  /** Stops the agent politely (so it closes its browser and profile dir), then removes its state. */
  cleanup(): Promise<void>
}

/**
 * A real `deskhook agent` process: the browser driver with Debian's Chromium by default, or the
 * Linux desktop driver (`driver: 'desktop'`, with a test desktop's variables in `env`).
 */
export function startAgent(opts: {
  server: string
  token?: string
  name?: string
  startUrl?: string
  /** `--driver`; the default is the agent's own (browser). */
  driver?: 'browser' | 'desktop'
  stateDir?: string
  extraArgs?: string[]
  /** Extra environment variables for the agent (on top of this process's). */
  env?: Record<string, string>
}): AgentProcess {
  const state = opts.stateDir ? { path: opts.stateDir, remove() {} } : tempDir('deskhook-agent-')
  const args = [
    process.execPath,
    MAIN,
    'agent',
    '--server',
    opts.server,
    '--state-dir',
    state.path,
    '--log-level',
    'debug',
  ]
  args.push('--reconnect-max', '1000')
  if (opts.token) args.push('--token', opts.token)
  if (opts.name) args.push('--name', opts.name)
  if (opts.startUrl) args.push('--start-url', opts.startUrl)
  if (opts.driver) args.push('--driver', opts.driver)
  if (opts.extraArgs) args.push(...opts.extraArgs)
  const proc = Bun.spawn(args, {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    ...(opts.env && { env: { ...process.env, ...opts.env } }),
  })
  const lines: string[] = []
  const waiters = new Set<{
    match: (l: Record<string, unknown>) => boolean
    resolve: (l: Record<string, unknown>) => void
  }>()
  const parse = (line: string): Record<string, unknown> => {
    try {
      return JSON.parse(line) as Record<string, unknown>
    } catch {
      return { msg: line }
    }
  }
  void (async () => {
    const decoder = new TextDecoder()
    let buffered = ''
    const reader = proc.stderr.getReader()
    for (;;) {
      const { value: chunk, done } = await reader.read()
      if (done) break
      buffered += decoder.decode(chunk)
      let nl = buffered.indexOf('\n')
      while (nl >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        lines.push(line)
        if (process.env.DESKHOOK_TEST_LOGS) process.stderr.write(`[agent] ${line}\n`)
        const parsed = parse(line)
        for (const w of waiters) {
          if (w.match(parsed)) {
            waiters.delete(w)
            w.resolve(parsed)
          }
        }
        nl = buffered.indexOf('\n')
      }
    }
  })()
  return {
    proc,
    stateDir: state.path,
    lines,
    exited: proc.exited,
    waitForLog(match, timeoutMs = 20_000) {
      const seen = lines.map(parse).find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve }
        waiters.add(waiter)
        setTimeout(() => {
          if (waiters.delete(waiter))
            reject(new Error(`agent log line not seen in ${timeoutMs} ms; got:\n${lines.join('\n')}`))
        }, timeoutMs)
      })
    },
    async kill(signal = 'SIGTERM') {
      proc.kill(signal)
      return proc.exited
    },
    async cleanup() {
      proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000)
      await proc.exited
      clearTimeout(timer)
      state.remove()
    },
  }
}
