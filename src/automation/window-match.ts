// Which open windows show the app an app spec names. One pure function for the runner (launch,
// focus, "the current window") and the builder (finding the app again after a replay), so both
// pick the same window. Templates in the spec are the caller's to render first.
import type { AppSpec } from '../protocol/automation.ts'
import type { WindowInfo } from '../protocol/elements.ts'

export type WindowSpec = Pick<AppSpec, 'url' | 'titleContains' | 'processName' | 'executable'>

/**
 * The windows that fit every part the spec gives: `url` by origin (a tab's URL, or its app, which
 * is its origin), `titleContains` as a case-insensitive substring of the title, and the program
 * (`processName`, else the basename of `executable`) equal to the window's app, case-insensitive
 * and without `.exe`. `executable` only counts for native specs: with a `url` it names the
 * browser, never the app of a tab (whose app is its origin).
 */
export function matchWindows(windows: readonly WindowInfo[], spec: WindowSpec): WindowInfo[] {
  const origin = spec.url === undefined ? undefined : originOf(spec.url)
  const title = spec.titleContains?.toLowerCase()
  const program = programOf(spec)
  return windows.filter(
    (w) =>
      (origin === undefined || w.app === origin || (w.url !== undefined && originOf(w.url) === origin)) &&
      (title === undefined || w.title.toLowerCase().includes(title)) &&
      (program === undefined || programName(w.app) === program),
  )
}

/** The spec in words for error messages ("at https://crm.test, titled "*Orders*""); '' when it names nothing. */
export function describeWindowSpec(spec: WindowSpec): string {
  const program = spec.processName ?? (spec.url === undefined ? spec.executable : undefined)
  return [
    spec.url !== undefined && `at ${spec.url}`,
    spec.titleContains !== undefined && `titled "*${spec.titleContains}*"`,
    program !== undefined && `of ${program}`,
  ]
    .filter(Boolean)
    .join(', ')
}

function programOf(spec: WindowSpec): string | undefined {
  if (spec.processName !== undefined) return programName(spec.processName)
  if (spec.executable !== undefined && spec.url === undefined) return programName(spec.executable)
  return undefined
}

/** `C:\Apps\Ledger.EXE`, `/usr/bin/ledger` and `ledger` are the same program. */
function programName(nameOrPath: string): string {
  const base = nameOrPath.slice(Math.max(nameOrPath.lastIndexOf('/'), nameOrPath.lastIndexOf('\\')) + 1)
  return base.toLowerCase().replace(/\.exe$/, '')
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
