// Runs a Windows exe built here under Debian's Wine, so the agent's exe is started for real before
// a PC sees it: that it starts at all (the runtime, its bundle after the version stamp), prints,
// and writes its log where Windows would keep it. Wine is not Windows (no UI Automation, no .NET
// here): what only a real PC shows is on agent-installer/WINDOWS-CHECKLIST.md.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'

export const WINE = '/usr/lib/wine/wine64'
const MINGW = 'x86_64-w64-mingw32-gcc'

/** Puts the bcryptprimitives.dll stand-in (wine/bcryptprimitives.c) beside the exe. */
export function prepareExe(exe: string): void {
  const dll = join(dirname(exe), 'bcryptprimitives.dll')
  if (existsSync(dll)) return
  const built = join(dirname(exe), 'bcryptprimitives.built.dll')
  const gcc = Bun.spawnSync(
    [MINGW, '-shared', '-O2', '-o', built, join(import.meta.dir, 'wine/bcryptprimitives.c'), '-ladvapi32'],
    { stderr: 'pipe' },
  )
  if (gcc.exitCode !== 0) throw new Error(`${MINGW} failed: ${gcc.stderr.toString()}`)
  copyFileSync(built, dll)
}

export interface WineRun {
  code: number
  stdout: string
  stderr: string
}

/** The exe with its arguments in a Wine prefix of its own (`prefix`, created on first use). */
export async function wine(exe: string, args: string[], prefix: string): Promise<WineRun> {
  prepareExe(exe)
  mkdirSync(prefix, { recursive: true })
  const proc = Bun.spawn([WINE, exe, ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all', DISPLAY: '' },
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

/** Where Wine keeps the prefix user's %LOCALAPPDATA%. */
export function localAppData(prefix: string): string {
  return join(prefix, 'drive_c', 'users', process.env.USER ?? 'root', 'AppData', 'Local')
}
