import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { requestState } from '../../http/request-state.ts'
import { type Actor, keyActor, SYSTEM_ACTOR, userActor } from './actor.ts'

/** The actor of an HTTP request: the signed-in person on the dashboard, else the caller's key. */
export function requestActor(ctx: AppContext, request: Request): Actor {
  const state = requestState(request)
  if (state.signedIn) return userActor(state.signedIn.user)
  if (state.apiKey) {
    const row = ctx.db
      .select({ prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(eq(apiKeys.id, state.apiKey.id))
      .get()
    return keyActor({ id: state.apiKey.id, name: state.apiKey.name, prefix: row?.prefix })
  }
  return SYSTEM_ACTOR
}
