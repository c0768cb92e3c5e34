// The agent's log file. On Windows the agent is a GUI program (no console window at logon, see
// docs/windows.md "The exe"), so nothing reads its stderr: it writes JSON lines to
// %LOCALAPPDATA%\deskhook\logs\agent.<n>.log instead, rolled at 10 MiB with the five files before
// the current one kept (pino-roll), and to stderr too when stderr leads somewhere (a console, a
// pipe or a file the person redirected it to).
import { fstatSync } from 'node:fs'
import { join } from 'node:path'
import type { DestinationStream } from 'pino'
import pinoRoll from 'pino-roll'

/** Where the agent logs by default: a file on Windows, nowhere else (stderr is the log there). */
export function defaultAgentLogFile(
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (platform !== 'win32') return undefined
  const base = env.LOCALAPPDATA ?? (env.USERPROFILE ? join(env.USERPROFILE, 'AppData', 'Local') : undefined)
  return base ? join(base, 'deskhook', 'logs', 'agent.log') : undefined
}

export interface RollingLog {
  stream: DestinationStream
  /** The file lines go to now (`agent.<n>.log` beside the path given). */
  current(): string
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>
}

/**
 * A log file that rolls over: `path` `…/agent.log` writes `…/agent.1.log`, then `agent.2.log` once
 * it holds `maxBytes`, keeping `keep` files besides the current one. Its folder is created.
 */
export async function rollingLogFile(
  path: string,
  opts: { maxBytes?: number; keep?: number } = {},
): Promise<RollingLog> {
  const extension = path.match(/\.[^./\\]+$/)?.[0] ?? ''
  const stream = await pinoRoll({
    file: extension ? path.slice(0, -extension.length) : path,
    extension,
    size: `${Math.max(1, Math.ceil((opts.maxBytes ?? 10 * 2 ** 20) / 1024))}k`,
    limit: { count: opts.keep ?? 5 },
    mkdir: true,
    // Each line is on disk before the call returns: the last words of an agent that exits are kept.
    sync: true,
  })
  return {
    stream: stream as unknown as DestinationStream,
    current: () => (stream as unknown as { file: string }).file,
    close: () =>
      new Promise<void>((resolve) => {
        stream.once('close', () => resolve())
        stream.end()
      }),
  }
}

/** Whether fd 2 leads somewhere: a GUI program started without redirection has no stderr at all. */
export function stderrUsable(): boolean {
  try {
    fstatSync(2)
    return true
  } catch {
    return false
  }
}
