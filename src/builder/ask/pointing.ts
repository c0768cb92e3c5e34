// Ask and point (docs/builder.md): every question about the screen offers "none of these" and can
// be answered by pointing at the thing itself. The builder waits on the screen it asks about, so
// the point is found in a fresh snapshot of that same screen.
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { isDecline, NONE_OF_THESE, pointOf, type Question } from '../../protocol/questions.ts'
import type { BuildSession } from '../session.ts'

export type ScreenAnswer =
  | { kind: 'option'; value: string; values: string[] }
  | { kind: 'none' }
  | { kind: 'point'; element: UiElement; snapshot: Snapshot }

/** Asks a question about the window the build is in: "none of these" is offered, and pointing. */
export async function askOnScreen(
  session: BuildSession,
  question: Omit<Question, 'pointable' | 'windowId'>,
  noneLabel = 'None of these (point at it instead)',
): Promise<ScreenAnswer> {
  const options = question.options.some((o) => o.value === NONE_OF_THESE)
    ? question.options
    : [...question.options, { value: NONE_OF_THESE, label: noneLabel }]
  const answer = await session.ask({ ...question, options, pointable: true, windowId: session.windowId })
  const spot = pointOf(answer)
  if (spot) {
    const snapshot = await session.snapshot()
    const element = elementAt(snapshot.root, spot)
    if (!element) {
      session.progress('explore', `Nothing on the screen is at the point given (${spot.x}, ${spot.y})`)
      return { kind: 'none' }
    }
    session.progress('explore', `Pointed at: ${element.role} “${element.name || element.value || ''}”`, {
      role: element.role,
      name: element.name,
    })
    return { kind: 'point', element, snapshot }
  }
  if (isDecline(answer)) return { kind: 'none' }
  const values = Array.isArray(answer) ? answer : [answer]
  return { kind: 'option', value: values[0] ?? '', values }
}

/** Asks the person to point at something; undefined when they say they cannot. */
export async function askToPoint(
  session: BuildSession,
  text: string,
): Promise<{ element: UiElement; snapshot: Snapshot } | undefined> {
  const answer = await askOnScreen(
    session,
    { kind: 'point', text, options: [], multiple: false },
    'It is not on this screen',
  )
  return answer.kind === 'point' ? answer : undefined
}

/** The deepest element whose box holds the spot (the smallest, where boxes overlap). */
export function elementAt(root: UiElement, spot: { x: number; y: number }): UiElement | undefined {
  let best: UiElement | undefined
  let bestArea = Number.POSITIVE_INFINITY
  const visit = (e: UiElement) => {
    const b = e.bounds
    const inside = b && spot.x >= b.x && spot.x <= b.x + b.width && spot.y >= b.y && spot.y <= b.y + b.height
    if (inside && e !== root && b.width * b.height <= bestArea) {
      best = e
      bestArea = b.width * b.height
    }
    for (const child of e.children) visit(child)
  }
  visit(root)
  return best
}
