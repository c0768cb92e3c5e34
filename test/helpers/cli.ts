import { join } from 'node:path'

const MAIN = join(import.meta.dir, '../../src/main.ts')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `deskhook …` as its own process (from source), the way an admin would. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

/** Polls until `check` holds: for effects that cross processes, never a fixed sleep. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await Bun.sleep(10)
  }
}
