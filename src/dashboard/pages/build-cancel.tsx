import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import type { AppError } from '../../lib/errors.ts'
import { cancelBuild } from '../../modules/builds/cancel.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { redirect } from '../http.ts'
import { Csrf } from '../ui/layout.tsx'

/** "Cancel build": shown while the build has not ended (the same as `POST /_builds/<id>/cancel`). */
export function CancelBuildForm(props: { buildId: string; signedIn: SignedIn }) {
  return (
    <form method="post" action={`/_/builds/${props.buildId}/cancel`} class="inline">
      <Csrf signedIn={props.signedIn} />
      <button type="submit" class="secondary">
        Cancel build
      </button>
    </form>
  )
}

/** The form's POST: a build that ended meanwhile shows the page with why nothing changed. */
export const buildCancelRoute = (
  ctx: AppContext,
  refused: (request: Request, id: string, err: AppError) => Promise<Response>,
) =>
  new Elysia({ name: 'dashboard.build-cancel' }).post('/_/builds/:id/cancel', async ({ params, request }) => {
    const who = requestState(request).signedIn?.user
    try {
      cancelBuild(ctx, params.id, `cancelled in the dashboard${who ? ` by ${who.email}` : ''}`)
    } catch (err) {
      if ((err as AppError).code === 'BUILD_FINISHED') return refused(request, params.id, err as AppError)
      throw err
    }
    return redirect(`/_/builds/${encodeURIComponent(params.id)}?build-cancelled=1`)
  })
