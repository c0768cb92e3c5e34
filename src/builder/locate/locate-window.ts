// Step 1 of a build: which open window the prompt is about. Windows are scored by the prompt's
// words in their title, URL and app name (a word in the app position, "in the CRM", counts
// triple); a tie is broken by the texts each window shows, and a remaining tie is a question.
import type { AppSpec } from '../../protocol/automation.ts'
import type { WindowInfo } from '../../protocol/elements.ts'
import { visibleTexts } from '../screen.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { compact, stems } from '../words.ts'
import { type PromptReading, spoken } from './prompt.ts'

export interface WindowScore {
  window: WindowInfo
  score: number
  matched: string[]
}

/** The words a window is known by: its title, its URL's host and path, its app. */
export function windowWords(window: WindowInfo): string[] {
  let url = ''
  if (window.url) {
    try {
      const parsed = new URL(window.url)
      url = `${parsed.hostname.replace(/^www\./, '')} ${parsed.pathname}`
    } catch {
      url = window.url
    }
  }
  return stems(`${window.title} ${url} ${window.app}`).filter((w) => !/^\d+$/.test(w))
}

export function scoreWindows(reading: PromptReading, windows: WindowInfo[]): WindowScore[] {
  return windows
    .map((window) => {
      const words = new Set(windowWords(window))
      const matched = reading.stems.filter((s) => words.has(s))
      const score = matched.reduce((sum, s) => sum + (reading.appStems.includes(s) ? 3 : 1), 0)
      return { window, score, matched }
    })
    .sort((a, b) => b.score - a.score)
}

/**
 * Apps the prompt names ("in SAP") that no open window shows. A name that is one of the sample's
 * own values ("… in Germany" with country: "Germany") is data, not an app.
 */
export function missingApps(reading: PromptReading, windows: WindowInfo[], values: string[] = []): string[] {
  const data = new Set(values.map((v) => compact(v)))
  return reading.namedApps.filter(
    (name) =>
      !data.has(compact(name)) &&
      !windows.some((w) => {
        const haystack = compact(`${w.title} ${w.url ?? ''} ${w.app}`)
        const words = new Set(windowWords(w))
        return haystack.includes(compact(name)) || stems(name).every((s) => words.has(s))
      }),
  )
}

export function describeWindow(window: WindowInfo): string {
  return window.url && window.url !== window.title ? `“${window.title}” (${window.url})` : `“${window.title}”`
}

export async function locateWindow(
  session: BuildSession,
  reading: PromptReading,
  values: string[],
): Promise<WindowInfo> {
  const windows = (await session.desktop('Listing windows', () => session.port.listWindows())).filter(
    (w) => w.url !== 'about:blank' && (w.title || w.url),
  )
  const openList = windows.map(describeWindow).join(', ') || 'none'
  session.progress('locate', `Open windows: ${openList}`, { windows: windows.map((w) => w.title) })
  const missing = missingApps(reading, windows, values)
  if (windows.length === 0 || missing.length > 0) {
    const asked = missing.length ? `“${missing.join('”, “')}”` : 'an app'
    throw new BuildFailure(
      'APP_NOT_FOUND',
      `The prompt asks for ${asked}, but no window on desktop “${session.port.name}” shows it. ` +
        `Open windows: ${openList}. Open the app there and teach again.`,
    )
  }
  const scores = scoreWindows(reading, windows)
  const summary = scores
    .map(
      (s) =>
        `${describeWindow(s.window)} ${s.score}${s.matched.length ? ` (${spoken(reading, s.matched)})` : ''}`,
    )
    .join('; ')
  session.progress(
    'locate',
    `Scored the windows by the prompt’s words in their titles and addresses: ${summary}`,
    {
      scores: scores.map((s) => ({ window: s.window.title, score: s.score, matched: s.matched })),
    },
  )
  // The desktop shows one app and the prompt names none: that is the app (a prompt rarely
  // repeats a product's name: "Create an address book" in Radicale's web interface).
  if (scores[0]!.score === 0 && windows.length === 1 && reading.namedApps.length === 0) {
    session.progress('locate', `Using ${describeWindow(windows[0]!)}, the only window open`, {
      window: windows[0]!.title,
    })
    return windows[0]!
  }
  if (scores[0]!.score === 0)
    throw new BuildFailure(
      'APP_NOT_FOUND',
      `No open window matches “${reading.text}”. Open windows: ${openList}. Open the app and teach again, ` +
        'or name it in the prompt ("… in the CRM").',
    )
  let top = scores.filter((s) => s.score === scores[0]!.score)
  if (top.length > 1) top = await breakTie(session, reading, top)
  if (top.length === 1) {
    session.progress('locate', `Using ${describeWindow(top[0]!.window)}`, { window: top[0]!.window.title })
    return top[0]!.window
  }
  // Windows of one desktop app started by one command line (its main window and a dialog it
  // opened, such as a sign-in) are one app: the job starts it afresh from that command anyway.
  const one = oneApp(top.map((s) => s.window))
  if (one) {
    session.progress('locate', `Using ${describeWindow(one)}: the windows that fit are all of this app`, {
      window: one.title,
    })
    return one
  }
  const answer = await session.ask({
    kind: 'choose_window',
    text: `Several windows fit “${reading.text}”. Which one should this job use?`,
    options: top.map((s) => ({ value: s.window.id, label: describeWindow(s.window) })),
    multiple: false,
  })
  const chosen = top.find((s) => s.window.id === answer)
  if (!chosen)
    throw new BuildFailure(
      'APP_NOT_FOUND',
      `None of the open windows is the app, as answered. Open windows: ${openList}. Open the app and teach again.`,
    )
  session.progress('locate', `Using ${describeWindow(chosen.window)}, as answered`, {
    window: chosen.window.title,
  })
  return chosen.window
}

/**
 * The window to use when every window is of one native app started by the same command line (the
 * desktop lists an app's main window first): that first one.
 */
export function oneApp(windows: WindowInfo[]): WindowInfo | undefined {
  const command = (w: WindowInfo) => (w.launchCommand ? JSON.stringify(appSpecOf(w)) : undefined)
  const first = windows[0]
  if (!first || windows.some((w) => w.kind !== 'window' || !command(w) || command(w) !== command(first)))
    return undefined
  return first
}

/** Among equally titled windows, prefer the one whose screen mentions more of the task. */
async function breakTie(
  session: BuildSession,
  reading: PromptReading,
  top: WindowScore[],
): Promise<WindowScore[]> {
  const rescored: WindowScore[] = []
  for (const entry of top) {
    const snapshot = await session.desktop('Reading a window', () => session.port.snapshot(entry.window.id))
    const words = new Set(visibleTexts(snapshot.root).flatMap((t) => stems(t)))
    const matched = reading.taskStems.filter((s) => words.has(s))
    rescored.push({ ...entry, score: entry.score + matched.length / (reading.taskStems.length + 1) })
  }
  rescored.sort((a, b) => b.score - a.score)
  session.progress('locate', 'Titles tie; compared what each window shows', {
    scores: rescored.map((s) => ({ window: s.window.title, score: Number(s.score.toFixed(2)) })),
  })
  return rescored.filter((s) => s.score === rescored[0]!.score)
}

/**
 * How a run opens the app: at the address its window was launched at (its start state), never
 * where the last build or run left it (a results page, another site); else the window's address.
 * A native app is started afresh from the command line its process was started with (every try
 * and every run begins from the app's start state), found by its program; the title is left out,
 * since it often shows data (a file name, a record) or a version.
 */
export function appSpecOf(window: WindowInfo): AppSpec {
  if (window.startUrl && /^(https?|file):/.test(window.startUrl)) return { url: window.startUrl }
  if (window.url && /^(https?|file):/.test(window.url)) return { url: window.url }
  const command = window.launchCommand
  if (command)
    return {
      executable: command.executable,
      ...(command.args?.length ? { args: command.args } : {}),
      ...(command.cwd ? { cwd: command.cwd } : {}),
      processName: window.app,
    }
  return { processName: window.app, titleContains: window.title }
}
