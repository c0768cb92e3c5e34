import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Command, Option } from 'commander'
import pino, { type DestinationStream } from 'pino'
import { Agent } from '../agent/agent.ts'
import { BrowserDriver, defaultExecutablePath } from '../agent/drivers/browser/index.ts'
import { createLinuxDesktopDriver } from '../agent/drivers/linux/index.ts'
import { createWindowsDesktopDriver } from '../agent/drivers/windows/index.ts'
import { defaultStateDir, StateStore } from '../agent/state-store.ts'
import { runAutomation } from '../automation/runner.ts'
import { defaultAgentLogFile, rollingLogFile, stderrUsable } from '../lib/log-file.ts'
import { createLogger, type Logger } from '../lib/logger.ts'
import { PIN_SEPARATOR, parseFingerprint, splitEnrollmentToken } from '../lib/tls-pin.ts'
import { DRIVER_CAPABILITIES, type Driver } from '../protocol/driver.ts'
import { VERSION } from '../version.ts'

/** Options that only mean something to the browser driver. */
const BROWSER_ONLY = ['browser', 'devtoolsUrl', 'startUrl', 'profileDir', 'headed'] as const

export function registerAgent(program: Command): void {
  program
    .command('agent')
    .description('run the desktop agent: connect to a deskhook server and drive this desktop')
    .requiredOption(
      '--server <url>',
      'the deskhook server, e.g. http://deskhook.lan:8080 [env DESKHOOK_SERVER]',
      process.env.DESKHOOK_SERVER,
    )
    .option(
      '--token <token>',
      'one-time enrollment token (first start only; `deskhook desktops token`) [env DESKHOOK_TOKEN]; ' +
        'an argument is visible to other users in `ps`: prefer DESKHOOK_TOKEN or --token-file',
      process.env.DESKHOOK_TOKEN,
    )
    .option('--token-file <path>', 'read the enrollment token from this file (`-` reads it from stdin)')
    .option(
      '--server-fingerprint <sha256>',
      "pin this certificate instead of the one saved at enrollment, after the server's CA was replaced " +
        '(a token made by an https server carries its fingerprint already)',
    )
    .option('--name <name>', 'how this desktop is shown in deskhook (default: the host name)')
    .addOption(
      new Option('--driver <driver>', 'how to drive the desktop (see Drivers below)')
        .choices(['browser', 'desktop', 'windows'])
        // The agent's own desktop on Windows; elsewhere web apps (the desktop driver needs its packages).
        .default(process.platform === 'win32' ? 'windows' : 'browser'),
    )
    .option('--browser <path>', `Chromium or Edge to launch (default: ${defaultExecutablePath()})`)
    .option(
      '--devtools-url <url>',
      'attach to a browser already running with --remote-debugging-port instead of launching one',
    )
    .option(
      '--start-url <url>',
      'open this page when the agent starts (the app jobs will use); its host is one the browser may resolve',
    )
    .option(
      '--profile-dir <dir>',
      'keep the browser profile (cookies, sign-ins) in this folder across agent restarts, so the ' +
        'desktop stays signed in to its apps; sign in once with --headed (default: a fresh profile each start)',
    )
    .option('--headed', 'show the browser window (default: headless)')
    .option(
      '--state-dir <dir>',
      `where the credential, run journal and browser PID are kept (default: ${defaultStateDir()})`,
    )
    .option('--log-level <level>', 'fatal|error|warn|info|debug', 'info')
    .option(
      '--log-file <path>',
      'also write the log to this file, rolled at 10 MiB, five old files kept ("none": stderr only; ' +
        `default: ${defaultAgentLogFile() ?? 'none here, %LOCALAPPDATA%\\deskhook\\logs\\agent.log on Windows'})`,
    )
    .option('--reconnect-max <ms>', 'longest wait between reconnect attempts', '30000')
    .addHelpText(
      'after',
      `\nDrivers:\n  browser  ${wrap(DRIVER_CAPABILITIES.browser.summary, '           ')}\n  desktop  ${wrap(
        `${DRIVER_CAPABILITIES.desktop.summary}. Linux only: needs an X display with the AT-SPI bus, and Debian's ` +
          'python3-pyatspi, python3-xlib and python3-pil',
        '           ',
      )}\n  windows  ${wrap(
        `${DRIVER_CAPABILITIES.windows.summary}. Windows only (the default there): the helper is built into ` +
          'the agent and needs the .NET Framework 4.8 that Windows 10 and 11 bring',
        '           ',
      )}`,
    )
    .action(async (opts) => {
      // The agent logs to stderr (stdout stays free for anything a wrapper script wants to read)
      // and to its log file: on Windows it has no console, so the file is where its log is.
      const log = await agentLogger(opts.logLevel, opts.logFile)
      const problems: string[] = []
      if (!/^https?:\/\/[^\s]+$/.test(opts.server ?? ''))
        problems.push(`--server must be an http(s) URL, got ${JSON.stringify(opts.server)}`)
      const cap = Number(opts.reconnectMax)
      if (!Number.isInteger(cap) || cap < 100) problems.push('--reconnect-max must be an integer ≥ 100 (ms)')
      if (opts.startUrl && !(/^https?:\/\/[^\s]+$/.test(opts.startUrl) && URL.canParse(opts.startUrl)))
        problems.push(`--start-url must be an http(s) URL, got ${JSON.stringify(opts.startUrl)}`)
      if (opts.driver === 'windows' && process.platform !== 'win32')
        problems.push(
          `--driver windows drives Windows desktops (UI Automation); this system is ${process.platform}: ` +
            'use --driver desktop (Linux) or --driver browser',
        )
      if (opts.driver === 'desktop' && process.platform !== 'linux')
        problems.push(
          '--driver desktop drives Linux desktops (AT-SPI); on Windows use --driver windows (the default there)',
        )
      if (opts.driver === 'desktop' || opts.driver === 'windows') {
        const flags = BROWSER_ONLY.filter((key) => opts[key] !== undefined)
        if (flags.length)
          problems.push(
            `${flags.map((f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} ` +
              'only apply to --driver browser',
          )
      }
      if (opts.profileDir && opts.devtoolsUrl)
        problems.push(
          '--profile-dir is for a browser the agent launches; with --devtools-url the browser keeps its own profile',
        )
      const stateDir = opts.stateDir ?? defaultStateDir()
      // Once enrolled, the token file may go: the installers start the agent with the same
      // --token-file every time (the MSI's task: agent-installer/deskhook-agent.wxs).
      const spentTokenGone =
        opts.tokenFile !== '-' && !existsSync(opts.tokenFile ?? '') && hasCredential(stateDir, opts.server)
      if (opts.tokenFile && opts.token)
        problems.push('give the token once: --token (or DESKHOOK_TOKEN) or --token-file')
      else if (opts.tokenFile && !spentTokenGone) {
        try {
          opts.token = (await readTokenFile(opts.tokenFile)).trim()
          if (!opts.token) problems.push(`--token-file ${opts.tokenFile} is empty`)
        } catch (err) {
          problems.push(`--token-file ${opts.tokenFile} cannot be read: ${(err as Error).message}`)
        }
      }
      problems.push(...pinProblems(opts))
      if (problems.length) {
        log.error({ problems }, 'invalid agent options')
        process.stderr.write(`Invalid agent options:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`)
        process.exit(2)
      }
      const state = new StateStore(stateDir)
      const driver = await startDriver(opts, stateDir, log)
      const agent = new Agent({
        server: opts.server,
        token: opts.token,
        pin: opts.serverFingerprint && (parseFingerprint(opts.serverFingerprint) ?? undefined),
        name: opts.name,
        driver,
        runAutomation,
        state,
        log,
        version: VERSION,
        backoffBaseMs: Math.min(500, cap),
        backoffCapMs: cap,
        onFatal: async (reason) => {
          log.error({ reason }, 'agent stopped')
          process.stderr.write(`deskhook agent: ${reason}\n`)
          await agent.stop().catch(() => {})
          process.exit(1)
        },
      })
      const shutdown = async () => {
        await agent.stop().catch(() => {})
        process.exit(0)
      }
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
        process.once(signal, () => void shutdown())
      // A bug must not leave the browser behind: the exit hook of launch-browser kills it.
      process.on('uncaughtException', (err) => {
        log.fatal({ err }, 'agent crashed')
        process.exit(70)
      })
      process.on('unhandledRejection', (err) =>
        log.error({ err }, 'unhandled rejection (agent keeps running)'),
      )
      agent.start()
    })
}

/** JSON lines to stderr when it leads somewhere, and to the log file (src/lib/log-file.ts). */
async function agentLogger(level: string, logFile: string | undefined): Promise<Logger> {
  const path = logFile === 'none' ? undefined : (logFile ?? defaultAgentLogFile())
  const streams: { level: 'trace'; stream: DestinationStream }[] = []
  if (stderrUsable()) streams.push({ level: 'trace', stream: process.stderr })
  let fileProblem: string | undefined
  if (path) {
    try {
      streams.push({ level: 'trace', stream: (await rollingLogFile(path)).stream })
    } catch (err) {
      fileProblem = `the log file ${path} cannot be written: ${(err as Error).message}`
    }
  }
  const destination =
    streams.length === 0
      ? process.stderr
      : streams.length === 1
        ? streams[0]!.stream
        : pino.multistream(streams)
  const log = createLogger({ level, format: 'json', destination: destination as NodeJS.WritableStream })
  if (fileProblem) log.warn(fileProblem)
  return log
}

/** A pin needs https, and must be a SHA-256 fingerprint (a mangled token is said so). */
function pinProblems(opts: Record<string, string | undefined>): string[] {
  const problems: string[] = []
  const { pin, badPin } = splitEnrollmentToken(opts.token ?? '')
  if (badPin !== undefined)
    problems.push(
      `the token's part after ${PIN_SEPARATOR} is no SHA-256 fingerprint: copy the whole token again`,
    )
  if (opts.serverFingerprint !== undefined && !parseFingerprint(opts.serverFingerprint))
    problems.push('--server-fingerprint must be a SHA-256 fingerprint (64 hex digits, colons allowed)')
  if ((pin || opts.serverFingerprint) && /^http:/i.test(opts.server ?? ''))
    problems.push('the server serves TLS (the token carries its fingerprint): --server must be an https URL')
  return problems
}

/** This state dir already holds the credential for that server (read without creating the dir). */
function hasCredential(stateDir: string, server: string | undefined): boolean {
  try {
    const saved = JSON.parse(readFileSync(join(stateDir, 'credential.json'), 'utf8')) as { server?: unknown }
    return (
      typeof saved.server === 'string' && saved.server.replace(/\/+$/, '') === server?.replace(/\/+$/, '')
    )
  } catch {
    return false
  }
}

/** The token from a file, or from stdin for `-` (so it never appears in the process list). */
async function readTokenFile(path: string): Promise<string> {
  return path === '-' ? await Bun.stdin.text() : await Bun.file(path).text()
}

/**
 * The driver the options ask for, started. A desktop driver that cannot start (no display, no
 * accessibility bus, Python packages missing) ends the agent with the reason.
 */
async function startDriver(
  opts: Record<string, string | undefined>,
  stateDir: string,
  log: Logger,
): Promise<Driver> {
  if (opts.driver === 'desktop' || opts.driver === 'windows') {
    let driver: Driver | undefined
    try {
      driver =
        opts.driver === 'windows'
          ? await createWindowsDesktopDriver({ stateDir, log })
          : createLinuxDesktopDriver({ stateDir, log })
      await driver.start()
    } catch (err) {
      log.error({ err }, `the ${opts.driver} driver cannot start`)
      process.stderr.write(
        `deskhook agent: the ${opts.driver} driver cannot start: ${(err as Error).message}\n`,
      )
      await driver?.stop().catch(() => {})
      process.exit(1)
    }
    return driver
  }
  const browser = new BrowserDriver({
    executablePath: opts.browser,
    devtoolsUrl: opts.devtoolsUrl,
    headless: !opts.headed,
    profileDir: opts.profileDir,
    // A browser left running by a crash of this agent is ended on the next start.
    pidFile: join(stateDir, 'browser.pid'),
    allowHosts: opts.startUrl ? [new URL(opts.startUrl).hostname] : [],
  })
  await browser.start()
  if (opts.startUrl) {
    // An app that is down now may be up by the first run: the agent stays online regardless.
    await browser
      .launch({ url: opts.startUrl })
      .catch((err: Error) => log.warn({ err: err.message, url: opts.startUrl }, 'start page not opened'))
  }
  return browser
}

/** Help text paragraphs wrapped to the width commander uses for options. */
function wrap(text: string, indent: string, width = 100): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width - indent.length) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.join(`\n${indent}`)
}
