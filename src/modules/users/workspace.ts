import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { settings } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'

const NAME_KEY = 'workspace_name'

/** The workspace's display name (set on first-run setup), or '' before setup. */
export function workspaceName(ctx: AppContext): string {
  return ctx.db.select().from(settings).where(eq(settings.key, NAME_KEY)).get()?.value ?? ''
}

export function setWorkspaceName(ctx: AppContext, name: string): string {
  const value = name.trim()
  if (!value || value.length > 80)
    throw new AppError('INVALID_REQUEST', 'A workspace name needs 1–80 characters', { field: 'workspace' })
  const updatedAt = ctx.clock.now().toISOString()
  ctx.db
    .insert(settings)
    .values({ key: NAME_KEY, value, updatedAt })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } })
    .run()
  return value
}
