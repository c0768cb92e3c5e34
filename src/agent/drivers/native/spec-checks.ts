// What the native driver refuses before it asks the helper: an app spec that names no window to
// attach to, and remote input the desktop host cannot give (native-driver.ts).
import type { AppSpec } from '../../../protocol/automation.ts'
import { DriverError } from '../../../protocol/driver.ts'
import type { WindowInfo } from '../../../protocol/elements.ts'
import { type RemoteInput, remoteKeyProblem } from '../../../protocol/recording.ts'

/** The open window an app spec without an executable attaches to (by title or process name). */
export function attachable(app: AppSpec, windows: WindowInfo[]): WindowInfo {
  const title = app.titleContains?.toLowerCase()
  const processName = app.processName?.toLowerCase()
  if (!title && !processName)
    throw new DriverError(
      'LAUNCH_FAILED',
      'A native app spec needs an executable (or a title or process name to attach to)',
    )
  const found = windows.find(
    (w) =>
      (!title || w.title.toLowerCase().includes(title)) &&
      (!processName || w.app.toLowerCase() === processName),
  )
  if (!found)
    throw new DriverError(
      'WINDOW_NOT_FOUND',
      `No open window ${[title && `titled *${title}*`, processName].filter(Boolean).join(' of ')}`,
    )
  return found
}

/** Throws for remote input the desktop host takes no part in: an unknown key, a select, a check. */
export function refuseRemoteInput(input: RemoteInput): void {
  const keyProblem = input.kind === 'key' ? remoteKeyProblem(input.key) : undefined
  if (keyProblem)
    throw new DriverError(
      'UNSUPPORTED_ACTION',
      `Unknown key "${input.kind === 'key' ? input.key : ''}": ${keyProblem}`,
    )
  // The desktop host takes clicks, text, named keys and wheel turns: a person sets the rest by
  // clicking (the drop-down, then its option; the box).
  if (input.kind === 'select' || input.kind === 'check')
    throw new DriverError(
      'UNSUPPORTED_ACTION',
      `A desktop app takes no remote ${input.kind}: click the ${input.kind === 'select' ? 'drop-down, then its option' : 'box'} instead`,
    )
}
