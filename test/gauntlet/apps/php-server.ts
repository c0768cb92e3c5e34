// PHP's own web server for the gauntlet's PHP apps, with a few workers as a real web server has:
// a single-threaded `php -S` stalls every request behind one the browser opened early and has
// not sent yet (Chromium preconnects), which made each page of MediaWiki wait ~30 s. The server
// runs in its own process group (setsid) so stopping it also stops the workers it forked.
import type { Subprocess } from 'bun'

export interface PhpServer {
  proc: Subprocess
  stop(): Promise<void>
}

export function startPhpServer(
  port: number,
  docroot: string,
  options: { cwd: string; env?: Record<string, string | undefined> },
): PhpServer {
  const proc = Bun.spawn(['setsid', 'php', '-S', `127.0.0.1:${port}`, '-t', docroot], {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), PHP_CLI_SERVER_WORKERS: '4' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  return {
    proc,
    async stop() {
      try {
        // The whole group: the server and its workers (setsid made the server its leader).
        process.kill(-proc.pid, 'SIGTERM')
      } catch {
        proc.kill()
      }
      await proc.exited
    },
  }
}
