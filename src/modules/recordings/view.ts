import type { RecordingStatus } from '../../protocol/recording.ts'
import type { RecordingActionView, RecordingView } from './model.ts'
import type { RecordingRow } from './repo.ts'

/** The build's window with its elements' boxes (src/modules/screen). */
export const screenPath = (buildId: string) => `/_builds/${buildId}/screen`

export const recordingPath = (buildId: string, recordingId: string) =>
  `/_builds/${buildId}/recordings/${recordingId}`

/** The API's (and the dashboard's) view of a recording; `live` is the agent's status while it records. */
export function toView(row: RecordingRow, live?: RecordingStatus): RecordingView {
  const base = recordingPath(row.buildId, row.id)
  const actions: RecordingActionView[] = row.actions.map((a) => ({
    seq: a.seq,
    atMs: a.atMs,
    kind: a.kind,
    target: a.target ?? null,
    ...(a.value !== undefined && !a.secret ? { value: a.value } : {}),
    ...(a.secret ? { secret: true } : {}),
    ...(a.key !== undefined ? { key: a.key } : {}),
    ...(a.url !== undefined ? { url: a.url } : {}),
    screenshotUrl: a.shot !== undefined ? `${base}/screenshots/${a.shot}` : null,
  }))
  return {
    id: row.id,
    buildId: row.buildId,
    desktopId: row.desktopId,
    windowId: row.windowId,
    status: row.status,
    startedBy: row.startedBy,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    window: row.window
      ? { title: row.window.title, ...(row.window.url ? { url: row.window.url } : {}) }
      : null,
    actions,
    actionCount: live ? live.actions : actions.length,
    recent: live ? live.recent : [],
    ...(live?.screens !== undefined ? { screensRead: live.screens } : {}),
    error: row.error,
    screenUrl: row.status === 'recording' ? screenPath(row.buildId) : null,
  }
}
