import type { AppContext } from '../context.ts'

/** The JSON columns of `builds` and what each becomes when it cannot be read. */
const BUILD_JSON = { question: 'NULL', answers: "'[]'", progress: "'[]'", error: 'NULL' } as const

/** The error a set-aside build ends with (a code of its own, so the dashboard can say so). */
export const BUILD_UNREADABLE = 'BUILD_UNREADABLE'

/**
 * A build row whose JSON cannot be parsed (a damaged page, a hand edit) made every read of the
 * builds fail, the start among them (issue 23, N14). Such a row is set aside at start: its
 * unreadable columns are reset, it ends `failed` with BUILD_UNREADABLE (the job and its sample stay,
 * so teaching again works), and one warning per row names it. Returns the ids set aside.
 */
export function quarantineUnreadableBuilds(ctx: AppContext): string[] {
  const sqlite = ctx.db.$client
  const damaged = Object.keys(BUILD_JSON)
    .map((c) => `(${c} IS NOT NULL AND NOT json_valid(${c}))`)
    .join(' OR ')
  const rows = sqlite
    .query<Record<string, unknown> & { id: string }, []>(
      `SELECT id, ${Object.keys(BUILD_JSON).join(', ')} FROM builds WHERE ${damaged}`,
    )
    .all()
  const now = ctx.clock.now().toISOString()
  for (const row of rows) {
    const columns = Object.keys(BUILD_JSON).filter((c) => {
      const v = row[c]
      if (v === null) return false
      try {
        JSON.parse(String(v))
        return false
      } catch {
        return true
      }
    })
    const error = JSON.stringify({
      code: BUILD_UNREADABLE,
      message: `This build's stored ${columns.join(', ')} could not be read (damaged data), so it was ended; teach the sample again`,
    })
    const resets = columns
      .filter((c) => c !== 'error')
      .map((c) => `${c} = ${BUILD_JSON[c as keyof typeof BUILD_JSON]}, `)
      .join('')
    sqlite
      .query(`UPDATE builds SET ${resets}status = 'failed', error = ?1, updated_at = ?2 WHERE id = ?3`)
      .run(error, now, row.id)
    ctx.log.warn(
      { buildId: row.id, columns },
      'a build row could not be read (damaged data): it was ended as failed with BUILD_UNREADABLE, the rest of the data is untouched',
    )
  }
  return rows.map((r) => r.id)
}
