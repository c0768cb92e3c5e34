// Pointing (docs/builder.md, "Ask and point"): a question about something on the screen can be
// answered by pointing at it. Over the API the person reads the build's window as a picture plus
// element boxes (`GET /_builds/<id>/screen`) and answers with an element's ref or a spot; the
// builder receives the spot (`point:<x>,<y>`) and finds the element there in its own snapshot,
// since refs are valid for one snapshot only.
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { pointAnswer } from '../../protocol/questions.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { type Build, getBuild } from '../builds/service.ts'
import { desktopOf } from '../recordings/service.ts'

const CALL_TIMEOUT_MS = 30_000
/** Elements listed per screen: enough for any form or table a person points into. */
const MAX_ELEMENTS = 2_000

export interface ScreenElement {
  ref: string
  role: string
  name: string
  value?: string
  bounds: { x: number; y: number; width: number; height: number }
}

export interface BuildScreen {
  buildId: string
  windowId: string
  /** The open question this screen is for (pointing answers it), or null. */
  questionId: string | null
  /** A JPEG of the window with its password fields blacked out, base64. */
  image: string
  imageType: 'image/jpeg'
  /** Every element with a box, in screen order; `bounds` are in the picture's pixels. */
  elements: ScreenElement[]
  takenAt: string
}

/** The last screen shown per build: a pointing answer's ref is looked up in it. */
type Shown = Map<string, { questionId: string | null; boxes: Map<string, ScreenElement> }>
const shown = new WeakMap<AppContext, Shown>()

function shownFor(ctx: AppContext): Shown {
  const had = shown.get(ctx)
  if (had) return had
  const map: Shown = new Map()
  shown.set(ctx, map)
  return map
}

/** The window the build works in: the open question's, else none (nothing to point at). */
function windowOf(build: Build): string {
  const windowId = build.question?.windowId
  if (build.status !== 'waiting_for_answer' || !build.question || !windowId)
    throw new AppError(
      'NO_OPEN_QUESTION',
      `Build ${build.id} is not asking about its screen now (status: ${build.status}); the screen is shown while a question about it is open`,
    )
  return windowId
}

export async function buildScreen(ctx: AppContext, hub: AgentHub, buildId: string): Promise<BuildScreen> {
  const build = getBuild(ctx, buildId)
  const windowId = windowOf(build)
  const desktopId = desktopOf(hub, build)
  const [snapshot, image] = await Promise.all([
    hub.rpc<Snapshot>(desktopId, 'snapshot', [windowId], CALL_TIMEOUT_MS),
    hub.rpc<string>(desktopId, 'screenshot', [windowId], CALL_TIMEOUT_MS),
  ])
  const elements = boxedElements(snapshot.root)
  shownFor(ctx).set(buildId, {
    questionId: build.question?.id ?? null,
    boxes: new Map(elements.map((e) => [e.ref, e])),
  })
  return {
    buildId,
    windowId,
    questionId: build.question?.id ?? null,
    image,
    imageType: 'image/jpeg',
    elements,
    takenAt: ctx.clock.now().toISOString(),
  }
}

function boxedElements(root: UiElement): ScreenElement[] {
  const out: ScreenElement[] = []
  const visit = (e: UiElement) => {
    if (out.length >= MAX_ELEMENTS) return
    const b = e.bounds
    if (b && b.width > 0 && b.height > 0 && e !== root)
      out.push({
        ref: e.ref,
        role: e.role,
        name: e.name,
        ...(e.value ? { value: e.value } : {}),
        bounds: { x: b.x, y: b.y, width: b.width, height: b.height },
      })
    for (const child of e.children) visit(child)
  }
  visit(root)
  return out
}

export type PointBody = { point: { x: number; y: number } | { ref: string } }

export const isPointBody = (answer: unknown): answer is PointBody =>
  typeof answer === 'object' && answer !== null && !Array.isArray(answer) && 'point' in answer

/**
 * A pointing answer as the builder receives it. A ref must come from the screen last shown for
 * this question (its box's centre is the spot); a spot is taken as given.
 */
export function pointedAnswer(ctx: AppContext, build: Build, body: PointBody): string {
  const q = build.question
  if (!q?.pointable)
    throw new AppError(
      'INVALID_ANSWER',
      'This question is not about something on the screen: answer with one of its options',
      { field: 'answer' },
    )
  const point = body.point
  if ('x' in point) return pointAnswer(point.x, point.y)
  const screen = shownFor(ctx).get(build.id)
  const box = screen?.questionId === q.id ? screen.boxes.get(point.ref) : undefined
  if (!box)
    throw new AppError(
      'INVALID_ANSWER',
      `No element ${point.ref} on the screen shown for this question: read GET /_builds/${build.id}/screen again and point at one of its elements`,
      { field: 'answer.point.ref' },
    )
  return pointAnswer(box.bounds.x + box.bounds.width / 2, box.bounds.y + box.bounds.height / 2)
}

/** Forgets a build's shown screen (the build ended). */
export function forgetScreen(ctx: AppContext, buildId: string): void {
  shownFor(ctx).delete(buildId)
}

export { getBuild }
