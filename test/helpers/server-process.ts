import { join } from 'node:path'
import type { Subprocess } from 'bun'

const MAIN = join(import.meta.dir, '../../src/main.ts')

export interface ServerProcess {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  /** The key printed on the first start of an empty data dir (empty on later starts). */
  initialKey: string
  output(): string
}

/** `deskhook serve` as its own process, so a test can `kill -9` it. */
export async function startServerProcess(dataDir: string, args: string[] = []): Promise<ServerProcess> {
  const proc = Bun.spawn(
    [
      process.execPath,
      MAIN,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--data',
      dataDir,
      '--log-format',
      'json',
      ...args,
    ],
    { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
  )
  const reader = proc.stdout.getReader()
  const decoder = new TextDecoder()
  let out = ''
  let url = ''
  while (!url) {
    const { value, done } = await reader.read()
    if (done)
      throw new Error(`server exited before listening:\n${out}\n${await new Response(proc.stderr).text()}`)
    out += decoder.decode(value)
    if (out.includes('"msg":"deskhook listening"')) url = /"url":"([^"]+)"/.exec(out)?.[1] ?? ''
  }
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      out += decoder.decode(value)
    }
  })()
  return { proc, url, initialKey: /(dh_[0-9A-Za-z]{49})/.exec(out)?.[1] ?? '', output: () => out }
}
