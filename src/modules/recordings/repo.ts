import { and, asc, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { type RecordingState, recordings } from '../../db/schema/index.ts'

/**
 * The recordings table's reads and writes, without rules: the service decides who may do what;
 * the builds service reads a recording given as an answer from here (no import cycle).
 */
export type RecordingRow = typeof recordings.$inferSelect

export function findRecording(ctx: AppContext, id: string): RecordingRow | undefined {
  return ctx.db.select().from(recordings).where(eq(recordings.id, id)).get()
}

/** The recording running on a desktop, if any (at most one: a partial unique index says so). */
export function recordingOnDesktop(ctx: AppContext, desktopId: string): RecordingRow | undefined {
  return ctx.db
    .select()
    .from(recordings)
    .where(and(eq(recordings.desktopId, desktopId), eq(recordings.status, 'recording')))
    .get()
}

export function recordingsOfBuild(ctx: AppContext, buildId: string): RecordingRow[] {
  return ctx.db
    .select()
    .from(recordings)
    .where(eq(recordings.buildId, buildId))
    .orderBy(asc(recordings.startedAt))
    .all()
}

export function insertRecording(ctx: AppContext, row: RecordingRow): void {
  ctx.db.insert(recordings).values(row).run()
}

/**
 * Changes a recording that is still in `from` (another request may have ended it meanwhile).
 * Returns the row as written, or undefined when it was no longer in that state.
 */
export function updateRecording(
  ctx: AppContext,
  id: string,
  from: RecordingState,
  patch: Partial<Omit<RecordingRow, 'id' | 'buildId'>>,
): RecordingRow | undefined {
  return ctx.db
    .update(recordings)
    .set(patch)
    .where(and(eq(recordings.id, id), eq(recordings.status, from)))
    .returning()
    .get()
}
