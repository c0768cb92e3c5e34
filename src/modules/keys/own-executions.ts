import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { apiKeys } from '../../db/schema/index.ts'
import type { KeyGrant } from './model.ts'

/** Rotations one execution's key may have gone through while its caller polled; far more than any real chain. */
const MAX_ROTATIONS = 32

/**
 * Whether the key may read an execution created with `creatorKeyId`: any key with the `read` scope
 * (within its job patterns, job-reach.ts), and any key reading what it created itself, or what a
 * key it replaced (`keys rotate`) created, so a caller that switched keys mid-poll still sees its
 * own runs: the key that made an async call polls it (README.md, "API keys").
 */
export function mayReadExecution(
  ctx: AppContext,
  grant: KeyGrant | undefined,
  creatorKeyId: string | null,
): boolean {
  if (!grant?.scopes || grant.scopes.includes('read')) return true
  let id = creatorKeyId
  for (let i = 0; id && i <= MAX_ROTATIONS; i++) {
    if (id === grant.id) return true
    id =
      ctx.db.select({ next: apiKeys.replacedBy }).from(apiKeys).where(eq(apiKeys.id, id)).get()?.next ?? null
  }
  return false
}
