// The Windows desktop driver (`--driver windows`): the shared native driver over the UI Automation
// helper (./helper/: C# for .NET Framework 4.8, built by `bun run build:uia-helper`). The helper
// exe is embedded in the agent, written to the agent's state dir at start (hash-checked) and run
// from there; its tree maps to the element model through the UIA role table (roles.ts).
import type { Logger } from '../../../lib/logger.ts'
import { HelperHost } from '../native/helper-host.ts'
import { NativeDriver } from '../native/native-driver.ts'
import { extractUiaHelper } from './extract-helper.ts'
import { UIA_PROFILE } from './roles.ts'

export interface WindowsDesktopOptions {
  /** The agent's state dir: the helper is written to its `helpers/uia/` folder. */
  stateDir: string
  log: Logger
  /** The helper's environment (default: the agent's). */
  env?: Record<string, string | undefined>
  /**
   * The helper's command line instead of the embedded helper: tests run a stand-in speaking the
   * same protocol (Windows cannot run where they do).
   */
  command?: string[]
  maxElements?: number
  launchTimeoutMs?: number
  callTimeoutMs?: number
}

/** The driver, its helper extracted and ready to start. Fails clearly when this agent carries no helper. */
export async function createWindowsDesktopDriver(options: WindowsDesktopOptions): Promise<NativeDriver> {
  const command = options.command ?? [extractUiaHelper(options.stateDir, await embeddedHelper())]
  const host = new HelperHost({
    command,
    env: options.env,
    log: options.log,
    callTimeoutMs: options.callTimeoutMs,
  })
  return new NativeDriver({
    kind: 'windows',
    host,
    profile: UIA_PROFILE,
    log: options.log,
    maxElements: options.maxElements,
    launchTimeoutMs: options.launchTimeoutMs,
    callTimeoutMs: options.callTimeoutMs,
  })
}

/**
 * Where the embedded helper is. The platform test is written as a block that `bun build --compile`
 * folds away for a target other than Windows, so only a Windows build bundles (and needs) the exe.
 */
async function embeddedHelper(): Promise<string> {
  if (process.platform === 'win32') {
    try {
      return (await import('./embedded-helper.ts')).default
    } catch (error) {
      throw new Error(
        `The Windows UI Automation helper is not built (${(error as Error).message}): ` +
          'run `bun run build:uia-helper`, then start the agent again',
      )
    }
  }
  throw new Error(
    `The windows driver drives Windows desktops (UI Automation); this system is ${process.platform}`,
  )
}
