// Point to answer in the dashboard (docs/builder.md, "Ask and point"): a question about something
// on the screen shows a picture of the build's window (the API's GET /_builds/<id>/screen, behind
// the session), and a click on it answers with the spot in the picture's pixels. The options stay
// beside it for the keyboard. The island (islands/point.ts) turns the click into the form's post.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import type { BuildQuestion } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { buildScreen } from '../../modules/screen/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import type { QuestionKind } from '../../protocol/questions.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { securityHeaders } from '../http.ts'
import { Csrf } from '../ui/layout.tsx'

/** A question the picture can answer: about something on the screen of a window it names. */
export const isPointable = (q: BuildQuestion) =>
  q.pointable === true && !!q.windowId && q.kind !== 'demonstrate'

/** What a click on the picture names, in the words of the question's kind. */
const THING: Partial<Record<QuestionKind, string>> = {
  choose_outputs: 'the value',
  map_field: 'the field',
  fill_required: 'the field',
  map_option: 'the option',
  choose_submit: 'the button',
}

export const screenUrl = (buildId: string, questionId: string) =>
  `/_/builds/${encodeURIComponent(buildId)}/screen.jpg?q=${encodeURIComponent(questionId)}`

/** The picture of the window, as a form of its own: a click fills the spot and sends it. */
export function PointForm(props: { buildId: string; question: BuildQuestion; signedIn: SignedIn }) {
  const { buildId, question: q } = props
  const help = `point-help-${q.id}`
  return (
    <form method="post" action={`/_/builds/${buildId}/answers`} class="stack point-form" data-point-form>
      <Csrf signedIn={props.signedIn} />
      <input type="hidden" name="questionId" value={q.id} />
      <input type="hidden" name="pointX" value="" />
      <input type="hidden" name="pointY" value="" />
      <p id={help}>
        {q.kind === 'point'
          ? 'Click it on the picture of the window.'
          : `Or click ${THING[q.kind] ?? 'it'} on the picture.`}
      </p>
      <div class="preview point-picture">
        <img
          src={screenUrl(buildId, q.id)}
          alt="The window the builder asks about, as it looks now"
          aria-describedby={help}
          hidden
        />
        <p class="muted" role="status" data-point-status>
          Taking a picture of the window…
        </p>
      </div>
    </form>
  )
}

const SPOT = /^\d{1,6}(\.\d+)?$/

/**
 * The picture form's fields as the API's pointing answer (a spot in the picture's pixels), or
 * undefined when the form is not the picture's.
 */
export function pointFromForm(
  form: Record<string, unknown>,
): { point: { x: number; y: number } } | undefined {
  const { pointX: x, pointY: y } = form
  if (x === undefined && y === undefined) return undefined
  if (typeof x !== 'string' || typeof y !== 'string' || !SPOT.test(x) || !SPOT.test(y))
    throw new AppError('INVALID_ANSWER', 'Click on the picture of the window to point at something')
  return { point: { x: Number(x), y: Number(y) } }
}

/**
 * `GET /_/builds/<id>/screen.jpg`: the build's window while it asks about it, password fields
 * blacked out: the API's screen without its element list, since a click answers with a spot. Like
 * a second read of the API's screen, it becomes the screen an API answer's `ref` is looked up in.
 */
export const buildScreenRoute = (ctx: AppContext, hub: AgentHub) =>
  new Elysia({ name: 'dashboard.build-screen' }).get('/_/builds/:id/screen.jpg', async ({ params }) => {
    const screen = await buildScreen(ctx, hub, params.id)
    return new Response(Buffer.from(screen.image, 'base64'), {
      headers: { 'content-type': screen.imageType, 'cache-control': 'no-store', ...securityHeaders() },
    })
  })
