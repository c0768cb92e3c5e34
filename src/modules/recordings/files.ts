import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { inArray } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { recordings } from '../../db/schema/index.ts'

/**
 * A recording's screenshots: `<data>/recordings/<recordingId>/<seq>.jpg`. They go with the
 * recording's build (its job or sample deleted); the retention task removes any folder whose
 * recording is gone (e.g. deleted by the CLI in another process).
 */
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/

export const recordingsRoot = (ctx: AppContext) => join(ctx.config.dataDir, 'recordings')

export function screenshotPath(ctx: AppContext, recordingId: string, seq: number): string {
  if (!SAFE_ID.test(recordingId)) throw new Error(`not a recording id: ${recordingId}`)
  return join(recordingsRoot(ctx), recordingId, `${seq}.jpg`)
}

/**
 * Writes the screenshots of a stopped recording, each aside and renamed into place (a page
 * reading one meanwhile never sees a half-written file). Returns the seqs written; one that
 * fails is logged and left out.
 */
export async function saveScreenshots(
  ctx: AppContext,
  recordingId: string,
  shots: { seq: number; base64: string }[],
): Promise<Set<number>> {
  const written = new Set<number>()
  if (shots.length === 0) return written
  const dir = join(recordingsRoot(ctx), recordingId)
  await mkdir(dir, { recursive: true })
  await Promise.all(
    shots.map(async ({ seq, base64 }) => {
      const temp = join(dir, `.${seq}.${process.pid}.tmp`)
      try {
        await writeFile(temp, Buffer.from(base64, 'base64'))
        await rename(temp, screenshotPath(ctx, recordingId, seq))
        written.add(seq)
      } catch (err) {
        ctx.log.error({ err, recordingId, seq }, 'could not save a recording screenshot')
        await rm(temp, { force: true }).catch(() => {})
      }
    }),
  )
  return written
}

export async function removeRecordingFiles(ctx: AppContext, recordingIds: string[]): Promise<void> {
  const root = recordingsRoot(ctx)
  await Promise.all(
    recordingIds
      .filter((id) => SAFE_ID.test(id))
      .map((id) =>
        rm(join(root, id), { recursive: true, force: true }).catch((err) =>
          ctx.log.warn({ err, recordingId: id }, 'could not remove a recording folder'),
        ),
      ),
  )
}

/** Removes folders of recordings that no longer exist. Returns how many went. */
export async function removeOrphanRecordingFiles(ctx: AppContext): Promise<number> {
  let names: string[]
  try {
    names = (await readdir(recordingsRoot(ctx), { withFileTypes: true }))
      .filter((d) => d.isDirectory() && SAFE_ID.test(d.name))
      .map((d) => d.name)
  } catch {
    return 0 // no recording was ever stopped here
  }
  let removed = 0
  // Small batches: a lookup per batch, never one statement over everything.
  for (let i = 0; i < names.length; i += 200) {
    const batch = names.slice(i, i + 200)
    const known = new Set(
      ctx.db
        .select({ id: recordings.id })
        .from(recordings)
        .where(inArray(recordings.id, batch))
        .all()
        .map((r) => r.id),
    )
    const orphans = batch.filter((id) => !known.has(id))
    await removeRecordingFiles(ctx, orphans)
    removed += orphans.length
  }
  return removed
}
