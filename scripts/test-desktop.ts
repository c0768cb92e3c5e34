/**
 * A headless Linux desktop for native-driver tests and local runs: Xvfb on a free display, a
 * D-Bus session bus, and the AT-SPI accessibility bus (started through the session bus, as a
 * desktop session does). `startTestDesktop()` returns the environment child processes need and a
 * `stop()` that ends everything it started, including apps that outlived their launcher.
 *
 * As a command: `bun scripts/test-desktop.ts -- <command…>` runs the command on a fresh desktop
 * and tears it down afterwards (exit code: the command's); without a command it prints the
 * variables and keeps the desktop up until Ctrl+C.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

export interface TestDesktop {
  /** `:N` */
  display: string
  /** The variables this desktop adds (DISPLAY, DBUS_SESSION_BUS_ADDRESS, accessibility switches…). */
  vars: Record<string, string>
  /** This process's environment with `vars` applied: what a child process on the desktop gets. */
  env: Record<string, string>
  /** The accessibility bus address (for diagnostics). */
  a11yBus: string
  /** Ends Xvfb, the buses and every process of this user still on this display or bus. */
  stop(): Promise<void>
}

export interface TestDesktopOptions {
  width?: number
  height?: number
  /** How long each part may take to come up. */
  timeoutMs?: number
}

const REQUIRED = ['Xvfb', 'dbus-daemon', 'dbus-send']

export async function startTestDesktop(options: TestDesktopOptions = {}): Promise<TestDesktop> {
  const missing = REQUIRED.filter((bin) => !Bun.which(bin))
  if (missing.length)
    throw new Error(
      `The test desktop needs ${missing.join(', ')}: run \`bun scripts/ensure-native-desktop.ts\``,
    )
  const timeoutMs = options.timeoutMs ?? 20_000
  const started: Subprocess[] = []
  const runtimeDir = mkdtempSync(join(tmpdir(), 'deskhook-desktop-'))
  const vars: Record<string, string> = {}
  const teardown = async () => {
    await endDesktop(started, vars)
    rmSync(runtimeDir, { recursive: true, force: true })
  }
  try {
    // Xvfb picks a free display itself and writes its number once it accepts connections.
    const size = `${options.width ?? 1920}x${options.height ?? 1200}x24`
    const xvfb = Bun.spawn(
      ['Xvfb', '-displayfd', '1', '-screen', '0', size, '-nolisten', 'tcp', '-noreset'],
      {
        stdin: 'ignore',
        stdout: 'pipe',
        stderr: 'pipe',
        detached: true,
      },
    )
    started.push(xvfb)
    const displayNumber = (await firstLine(xvfb, timeoutMs, 'Xvfb')).trim()
    if (!/^\d+$/.test(displayNumber))
      throw new Error(`Xvfb reported display ${JSON.stringify(displayNumber)}`)
    Object.assign(vars, {
      DISPLAY: `:${displayNumber}`,
      XDG_RUNTIME_DIR: runtimeDir,
      // GTK 3 loads its AT-SPI bridge unless told not to; GTK 2 needs the modules; Qt only
      // exposes its tree when asked; GNOME_ACCESSIBILITY is what older toolkits check.
      NO_AT_BRIDGE: '0',
      GTK_MODULES: 'gail:atk-bridge',
      GNOME_ACCESSIBILITY: '1',
      QT_ACCESSIBILITY: '1',
      QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
      GDK_BACKEND: 'x11',
      QT_QPA_PLATFORM: 'xcb',
      // Xvfb has no GPU: apps that probe GL go straight to software rendering.
      LIBGL_ALWAYS_SOFTWARE: '1',
    })
    const base = desktopEnv(vars)
    const dbus = Bun.spawn(['dbus-daemon', '--session', '--nofork', '--nopidfile', '--print-address=1'], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      detached: true,
      env: base,
    })
    started.push(dbus)
    vars.DBUS_SESSION_BUS_ADDRESS = (await firstLine(dbus, timeoutMs, 'dbus-daemon')).trim()
    const env = desktopEnv(vars)
    // Asking the session bus for the accessibility bus starts it (at-spi-bus-launcher, by D-Bus
    // activation) and answers once it is up; then accessibility is switched on for toolkits that
    // wait to be told (Qt reads org.a11y.Status).
    const a11yBus = (
      await run(
        [
          'dbus-send',
          '--session',
          '--print-reply=literal',
          '--dest=org.a11y.Bus',
          '/org/a11y/bus',
          'org.a11y.Bus.GetAddress',
        ],
        env,
        timeoutMs,
      )
    ).trim()
    if (!a11yBus.startsWith('unix:')) throw new Error(`The accessibility bus did not start: ${a11yBus}`)
    await run(
      [
        'dbus-send',
        '--session',
        '--print-reply',
        '--dest=org.a11y.Bus',
        '/org/a11y/bus',
        'org.freedesktop.DBus.Properties.Set',
        'string:org.a11y.Status',
        'string:IsEnabled',
        'variant:boolean:true',
      ],
      env,
      timeoutMs,
    )
    let stopped: Promise<void> | undefined
    return {
      display: vars.DISPLAY!,
      vars: { ...vars },
      env,
      a11yBus,
      stop: () => {
        stopped ??= teardown()
        return stopped
      },
    }
  } catch (error) {
    await teardown()
    throw error
  }
}

function desktopEnv(vars: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value
  // A Wayland session of the person running the tests must not attract the apps.
  delete env.WAYLAND_DISPLAY
  delete env.AT_SPI_BUS_ADDRESS
  return { ...env, ...vars }
}

async function firstLine(proc: Subprocess<'ignore', 'pipe', 'pipe'>, timeoutMs: number, what: string) {
  const reader = proc.stdout.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = setTimeout(() => proc.kill('SIGKILL'), timeoutMs)
  try {
    while (!text.includes('\n')) {
      const { value, done } = await reader.read()
      if (done) {
        const err = await new Response(proc.stderr).text().catch(() => '')
        throw new Error(
          `${what} ended before it was ready (exit ${await proc.exited}): ${err.trim().slice(-500)}`,
        )
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    clearTimeout(deadline)
    reader.releaseLock()
  }
  return text.slice(0, text.indexOf('\n'))
}

async function run(cmd: string[], env: Record<string, string>, timeoutMs: number): Promise<string> {
  const proc = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env, timeout: timeoutMs })
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  if (code !== 0)
    throw new Error(`${cmd.slice(0, 2).join(' ')} failed (${code}): ${err.trim() || out.trim()}`)
  return out
}

/**
 * Ends the desktop: the processes it started (with their groups), then every process of this
 * user whose environment names this display or session bus (apps started in their own sessions,
 * the accessibility bus and registry the session bus activated), TERM first, KILL at the deadline.
 */
async function endDesktop(started: Subprocess[], vars: Record<string, string>): Promise<void> {
  const marks = [
    vars.DISPLAY && `DISPLAY=${vars.DISPLAY}`,
    vars.DBUS_SESSION_BUS_ADDRESS && `DBUS_SESSION_BUS_ADDRESS=${vars.DBUS_SESSION_BUS_ADDRESS}`,
  ].filter((m): m is string => Boolean(m))
  const ours = marks.length ? processesWith(marks) : []
  const groups = started.map((p) => p.pid)
  for (const pid of ours) signal(pid, 'SIGTERM')
  for (const pid of groups) signal(-pid, 'SIGTERM')
  await waitGone([...ours, ...groups], 3_000)
  const left = [...ours, ...groups, ...(marks.length ? processesWith(marks) : [])]
  for (const pid of left) signal(pid, 'SIGKILL')
  for (const pid of groups) signal(-pid, 'SIGKILL')
  await waitGone(left, 3_000)
  await Promise.all(started.map((p) => p.exited))
}

function processesWith(marks: string[]): number[] {
  const skip = ancestry()
  const uid = process.getuid?.()
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (skip.has(pid)) continue
    try {
      if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) continue
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')
      if (marks.some((mark) => environ.includes(mark))) found.push(pid)
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/** This process and its parents: never ended by the sweep, whatever their environment says. */
function ancestry(): Set<number> {
  const pids = new Set<number>()
  let pid = process.pid
  while (pid > 1 && !pids.has(pid)) {
    pids.add(pid)
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    } catch {
      break
    }
  }
  return pids
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig)
  } catch {}
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${Math.abs(pid)}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Waits until the processes are gone (re-checked every 20 ms: Linux has no exit event for other processes' children), or the deadline. */
async function waitGone(pids: number[], timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (pids.some(alive) && performance.now() < deadline) await Bun.sleep(20)
}

if (import.meta.main) {
  // Bun keeps or drops a leading `--` depending on how it was called: accept both.
  const rest = process.argv.slice(2)
  const command = rest[0] === '--' ? rest.slice(1) : rest
  const desktop = await startTestDesktop()
  const stop = async (code: number) => {
    await desktop.stop()
    process.exit(code)
  }
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void stop(130))
  if (command.length === 0) {
    for (const [key, value] of Object.entries(desktop.vars)) console.log(`export ${key}='${value}'`)
    console.error('Test desktop up; Ctrl+C ends it.')
  } else {
    const child = Bun.spawn(command, { stdio: ['inherit', 'inherit', 'inherit'], env: desktop.env })
    await stop(await child.exited)
  }
}
