import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { apiKeys, users } from '../../db/schema/index.ts'
import { onKeyEvent } from '../keys/key-events.ts'
import { type Actor, cliActor, keyActor, SYSTEM_ACTOR, userActor } from './actor.ts'
import { recordAudit } from './record.ts'

/**
 * The keys module names its actor as a short string (`cli`, `user:<id>`, `key:<id>`, `system`);
 * the log keeps who that was: the OS user, the person's email, the key's prefix and name.
 */
export function actorFromRef(ctx: AppContext, ref: string): Actor {
  if (ref === 'cli') return cliActor()
  const [kind, id] = ref.split(/:(.*)/s) as [string, string | undefined]
  if (kind === 'user' && id) {
    const user = ctx.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, id)).get()
    return user ? userActor(user) : { kind: 'user', id, label: id }
  }
  if (kind === 'key' && id) {
    const key = ctx.db
      .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(eq(apiKeys.id, id))
      .get()
    return key ? keyActor(key) : { kind: 'key', id, label: id }
  }
  return SYSTEM_ACTOR
}

/** The same reference for an actor, for modules that take one as a string. */
export const actorRef = (actor: Actor): string =>
  actor.kind === 'cli' ? 'cli' : actor.kind === 'system' ? 'system' : `${actor.kind}:${actor.id}`

const wired = new WeakSet<AppContext>()

/**
 * Records key creations, rotations and revocations. The keys module tells them once committed,
 * so each is its own audit transaction right after the change. Idempotent per context.
 */
export function auditKeyEvents(ctx: AppContext): void {
  if (wired.has(ctx)) return
  wired.add(ctx)
  onKeyEvent(ctx, (e) => {
    const actor = actorFromRef(ctx, e.actor)
    const target = { kind: 'key', id: e.keyId }
    if (e.type === 'key.rotated')
      recordAudit(ctx, {
        actor,
        action: 'key.rotated',
        target,
        details: {
          name: e.name,
          prefix: e.prefix,
          oldKeyId: e.oldKeyId,
          oldPrefix: e.oldPrefix,
          oldExpiresAt: e.oldExpiresAt,
        },
      })
    else recordAudit(ctx, { actor, action: e.type, target, details: { name: e.name, prefix: e.prefix } })
  })
}
