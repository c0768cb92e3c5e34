// The Linux desktop driver (`--driver desktop`): the shared native driver over the AT-SPI helper.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../../../lib/logger.ts'
import { HelperHost } from '../native/helper-host.ts'
import { installHelper } from '../native/install-helper.ts'
import { NativeDriver } from '../native/native-driver.ts'
import { settingsRoot } from '../native/settings-guard.ts'
import actions from './atspi_actions.py' with { type: 'text' }
import apps from './atspi_apps.py' with { type: 'text' }
import common from './atspi_common.py' with { type: 'text' }
import events from './atspi_events.py' with { type: 'text' }
import ready from './atspi_ready.py' with { type: 'text' }
import record from './atspi_record.py' with { type: 'text' }
import targets from './atspi_targets.py' with { type: 'text' }
import tree from './atspi_tree.py' with { type: 'text' }
import x11 from './atspi_x11.py' with { type: 'text' }
import xrecord from './atspi_xrecord.py' with { type: 'text' }
import main from './atspi-helper.py' with { type: 'text' }
import { ATSPI_PROFILE } from './atspi-roles.ts'

/** The helper's files, as the agent writes them to its state dir. */
export const ATSPI_HELPER_FILES: Readonly<Record<string, string>> = {
  'atspi-helper.py': main,
  'atspi_common.py': common,
  'atspi_tree.py': tree,
  'atspi_actions.py': actions,
  'atspi_events.py': events,
  'atspi_apps.py': apps,
  'atspi_x11.py': x11,
  'atspi_record.py': record,
  'atspi_ready.py': ready,
  'atspi_targets.py': targets,
  'atspi_xrecord.py': xrecord,
}

export interface LinuxDesktopOptions {
  /** The agent's state dir: the helper is written to its `helpers/atspi/` folder. */
  stateDir: string
  log: Logger
  /** The helper's environment (DISPLAY, DBUS_SESSION_BUS_ADDRESS…); default: the agent's. */
  env?: Record<string, string | undefined>
  /** Python to run the helper with (default: Debian's /usr/bin/python3, where python3-pyatspi is). */
  python?: string
  maxElements?: number
  launchTimeoutMs?: number
  callTimeoutMs?: number
}

export function defaultPython(): string {
  // The system Python: pyenv's or a venv's would not see Debian's python3-pyatspi.
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
}

/** Writes the helper to the state dir; returns the command line that runs it. */
export function installAtspiHelper(stateDir: string, python = defaultPython()): string[] {
  const dir = installHelper(stateDir, 'atspi', ATSPI_HELPER_FILES)
  // -B: no bytecode files next to the helper; -u: unbuffered stderr lines reach the log at once.
  return [python, '-B', '-u', join(dir, 'atspi-helper.py')]
}

export function createLinuxDesktopDriver(options: LinuxDesktopOptions): NativeDriver {
  const host = new HelperHost({
    command: installAtspiHelper(options.stateDir, options.python),
    env: options.env,
    log: options.log,
    callTimeoutMs: options.callTimeoutMs,
  })
  return new NativeDriver({
    kind: 'desktop',
    host,
    profile: ATSPI_PROFILE,
    log: options.log,
    maxElements: options.maxElements,
    launchTimeoutMs: options.launchTimeoutMs,
    callTimeoutMs: options.callTimeoutMs,
    // The settings folder of the desktop user the agent runs as (apps started afresh get that environment).
    settingsRoot: settingsRoot(options.env ?? process.env, 'linux'),
  })
}
