import { Value } from '@sinclair/typebox/value'
import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import type { WindowInfo } from '../../protocol/elements.ts'
import { Recording, type RecordingStatus } from '../../protocol/recording.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { type Build, getBuild } from '../builds/service.ts'
import { removeRecordingFiles, saveScreenshots, screenshotPath } from './files.ts'
import type { RecordingActor, RecordingView } from './model.ts'
import {
  findRecording,
  insertRecording,
  type RecordingRow,
  recordingOnDesktop,
  recordingsOfBuild,
  updateRecording,
} from './repo.ts'
import { checkInput, storedActions, withoutSecretValues } from './sanitize.ts'
import { toView } from './view.ts'

export { recordingPath, toView } from './view.ts'
export type { RecordingRow }

/** The agent settles the window and reads it once more before it answers a stop. */
const STOP_TIMEOUT_MS = 60_000
const CALL_TIMEOUT_MS = 30_000

/** Who an API key is, as recordings name it: its prefix (what `keys list` shows). */
export function apiKeyActor(ctx: AppContext, apiKeyId: string): RecordingActor {
  const row = ctx.db.select({ prefix: apiKeys.prefix }).from(apiKeys).where(eq(apiKeys.id, apiKeyId)).get()
  return row?.prefix ?? `key ${apiKeyId}`
}

const isDemonstrating = (b: Build) => b.status === 'waiting_for_answer' && b.question?.kind === 'demonstrate'

/** The desktop the build is on: the one it holds (the build worker reserves it), else the one it names. */
export function desktopOf(hub: AgentHub, build: Build): string {
  const online = hub.onlineDesktops()
  const held = online.find((d) => hub.heldBy(d.id) === build.id)
  const named = build.desktop
    ? online.find((d) => d.id === build.desktop || d.name === build.desktop)
    : undefined
  const desktop = held ?? named
  if (!desktop)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `The desktop of build ${build.id} is not connected; start its deskhook agent and try again`,
    )
  return desktop.id
}

/**
 * A recording left running when its build stopped asking to be shown (answered, failed, the
 * server restarted) no longer holds the desktop: it ends `cancelled`, and the agent is told to
 * stop when a hub is at hand. Returns the row as it now is.
 */
function settleStale(ctx: AppContext, row: RecordingRow, hub?: AgentHub): RecordingRow {
  if (row.status !== 'recording') return row
  let build: Build | undefined
  try {
    build = getBuild(ctx, row.buildId)
  } catch {}
  if (build && isDemonstrating(build)) return row
  const ended = updateRecording(ctx, row.id, 'recording', {
    status: 'cancelled',
    endedAt: ctx.clock.now().toISOString(),
    error: 'The build stopped asking to be shown before the recording was stopped',
  })
  if (hub?.isOnline(row.desktopId)) hub.rpc(row.desktopId, 'recordStop', [], STOP_TIMEOUT_MS).catch(() => {})
  return ended ?? findRecording(ctx, row.id) ?? row
}

function requireRecording(ctx: AppContext, buildId: string, recordingId: string): RecordingRow {
  getBuild(ctx, buildId) // 404 for the build first
  const row = findRecording(ctx, recordingId)
  if (!row || row.buildId !== buildId)
    throw new AppError('RECORDING_NOT_FOUND', `Build ${buildId} has no recording with id ${recordingId}`)
  return row
}

function requireActive(row: RecordingRow, by: RecordingActor, action: 'input' | 'stop' | 'cancel'): void {
  if (row.status !== 'recording') {
    const state =
      row.status === 'done' ? 'has been stopped' : row.status === 'cancelled' ? 'was cancelled' : 'failed'
    const refusal =
      action === 'input'
        ? 'it takes no more input'
        : `it cannot be ${action === 'stop' ? 'stopped' : 'cancelled'}`
    throw new AppError(
      'RECORDING_NOT_ACTIVE',
      `Recording ${row.id} ${state}; ${refusal}${row.error ? ` (${row.error})` : ''}`,
      { status: row.status },
    )
  }
  if (row.startedBy !== by)
    throw new AppError(
      'DESKTOP_IN_USE',
      `The desktop is being demonstrated by ${row.startedBy}; only they can ${action === 'input' ? 'send input to' : action} this recording`,
      { startedBy: row.startedBy },
    )
}

const isDriverError = (err: unknown) =>
  err instanceof AppError && err.details !== undefined && 'driverError' in err.details

/**
 * Starts recording the window the build's `demonstrate` question names. The person (or key) who
 * starts it holds the desktop until the recording ends. Starting again while one's own recording
 * of this build runs returns that recording.
 */
export async function startRecording(
  ctx: AppContext,
  hub: AgentHub,
  buildId: string,
  by: RecordingActor,
  actor: Actor = SYSTEM_ACTOR,
): Promise<RecordingView> {
  const build = getBuild(ctx, buildId)
  if (!isDemonstrating(build))
    throw new AppError(
      'NOT_DEMONSTRATING',
      build.status === 'waiting_for_answer'
        ? `Build ${buildId} is asking a ${build.question?.kind} question, not to be shown; a recording can start only while it asks "demonstrate"`
        : `Build ${buildId} is not asking to be shown (status: ${build.status}); a recording can start only while its open question is "demonstrate"`,
      { status: build.status },
    )
  const windowId = build.question!.windowId
  if (!windowId)
    throw new AppError('NOT_DEMONSTRATING', `Build ${buildId}'s question names no window to record in`)
  const desktopId = desktopOf(hub, build)
  const running = recordingOnDesktop(ctx, desktopId)
  const active = running && settleStale(ctx, running, hub)
  if (active?.status === 'recording') {
    if (active.startedBy === by && active.buildId === buildId) return toView(active)
    throw new AppError(
      'DESKTOP_IN_USE',
      `The desktop is being demonstrated by ${active.startedBy}; it is free once they stop or cancel`,
      { startedBy: active.startedBy, recordingId: active.id },
    )
  }
  const row: RecordingRow = {
    id: newId(),
    buildId,
    desktopId,
    windowId,
    status: 'recording',
    startedBy: by,
    startedAt: ctx.clock.now().toISOString(),
    endedAt: null,
    window: null,
    actions: [],
    snapshots: [],
    error: null,
  }
  insertRecording(ctx, row)
  recordAudit(ctx, {
    actor,
    action: 'recording.started',
    target: { kind: 'recording', id: row.id },
    details: { buildId, desktopId, windowId },
  })
  try {
    await hub.rpc<RecordingStatus>(desktopId, 'recordStart', [windowId], CALL_TIMEOUT_MS)
  } catch (err) {
    updateRecording(ctx, row.id, 'recording', {
      status: 'failed',
      endedAt: ctx.clock.now().toISOString(),
      error: (err as Error).message,
    })
    ctx.events.emit('build.changed', buildId)
    throw err
  }
  // The window's title and address, for "Recording in …" (best effort: the recording runs anyway).
  const windows = await hub.rpc<WindowInfo[]>(desktopId, 'listWindows', [], CALL_TIMEOUT_MS).catch(() => [])
  const window = windows.find((w) => w.id === windowId)
  const started = (window && updateRecording(ctx, row.id, 'recording', { window })) || row
  ctx.log.info({ recordingId: row.id, buildId, desktopId }, 'recording started')
  ctx.events.emit('build.changed', buildId)
  return toView(started)
}

/** The recording, with the agent's live count and recent actions while it records. */
export async function recordingStatus(
  ctx: AppContext,
  hub: AgentHub,
  buildId: string,
  recordingId: string,
): Promise<RecordingView> {
  const row = settleStale(ctx, requireRecording(ctx, buildId, recordingId), hub)
  if (row.status !== 'recording' || !hub.isOnline(row.desktopId)) return toView(row)
  let live: RecordingStatus
  try {
    live = await hub.rpc<RecordingStatus>(row.desktopId, 'recordStatus', [], CALL_TIMEOUT_MS)
  } catch {
    return toView(row) // the desktop is slow or went away: show what is stored
  }
  if (!live.recording || live.windowId !== row.windowId) {
    // The agent restarted (or was told to record elsewhere): this recording is lost.
    const failed = updateRecording(ctx, row.id, 'recording', {
      status: 'failed',
      endedAt: ctx.clock.now().toISOString(),
      error: 'The desktop stopped recording (its agent restarted?); start a new recording',
    })
    if (failed) ctx.events.emit('build.changed', buildId)
    return toView(failed ?? findRecording(ctx, row.id) ?? row)
  }
  return toView(row, live)
}

/**
 * Ends the recording and keeps what it holds: actions and screens in the row, screenshots as
 * files. Only whoever started it may stop it. A recording with no actions is kept too (answering
 * with it is refused).
 */
export async function stopRecording(
  ctx: AppContext,
  hub: AgentHub,
  buildId: string,
  recordingId: string,
  by: RecordingActor,
): Promise<RecordingView> {
  const row = settleStale(ctx, requireRecording(ctx, buildId, recordingId), hub)
  if (row.status === 'done' && row.startedBy === by) return toView(row)
  requireActive(row, by, 'stop')
  let raw: unknown
  try {
    raw = await hub.rpc<unknown>(row.desktopId, 'recordStop', [], STOP_TIMEOUT_MS)
  } catch (err) {
    // Not connected, or no answer in time: still recording as far as anyone knows; try again.
    if (!isDriverError(err)) throw err
    fail(ctx, row, (err as Error).message)
    throw new AppError(
      'RECORDING_NOT_ACTIVE',
      `The desktop was no longer recording (${(err as Error).message}); start a new recording`,
      { status: 'failed' },
    )
  }
  if (!Value.Check(Recording, raw)) {
    fail(ctx, row, 'The desktop sent a recording this server cannot read')
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      "The desktop sent a recording this server cannot read (is the agent's version the server's?)",
    )
  }
  const recording = raw
  // Files first: a row never names a screenshot that is not there (a crash leaves only an orphan folder).
  const shots = recording.actions.flatMap((a) => (a.screenshot ? [{ seq: a.seq, base64: a.screenshot }] : []))
  const written = await saveScreenshots(ctx, row.id, shots)
  const actions = storedActions(recording, written)
  const done = updateRecording(ctx, row.id, 'recording', {
    status: 'done',
    endedAt: ctx.clock.now().toISOString(),
    window: recording.window,
    actions,
    snapshots: recording.snapshots.map(withoutSecretValues),
  })
  if (!done) {
    // Cancelled meanwhile: what was just written has no row to go with.
    await removeRecordingFiles(ctx, [row.id])
    throw new AppError('RECORDING_NOT_ACTIVE', `Recording ${row.id} was cancelled while it was being stopped`)
  }
  // Counts and kinds only: what was typed stays out of the log.
  const kinds: Record<string, number> = {}
  for (const a of actions) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1
  ctx.log.info(
    { recordingId: row.id, buildId, actions: actions.length, kinds, screenshots: written.size },
    'recording stopped',
  )
  ctx.events.emit('build.changed', buildId)
  return toView(done)
}

/** Ends the recording without keeping it (only whoever started it may). */
export async function cancelRecording(
  ctx: AppContext,
  hub: AgentHub,
  buildId: string,
  recordingId: string,
  by: RecordingActor,
): Promise<RecordingView> {
  const row = settleStale(ctx, requireRecording(ctx, buildId, recordingId), hub)
  if (row.status === 'cancelled') return toView(row)
  requireActive(row, by, 'cancel')
  const cancelled = updateRecording(ctx, row.id, 'recording', {
    status: 'cancelled',
    endedAt: ctx.clock.now().toISOString(),
  })
  if (!cancelled) return toView(findRecording(ctx, row.id) ?? row)
  // The agent drops what it recorded; if it cannot be reached, its next recordStart does.
  if (hub.isOnline(row.desktopId))
    await hub.rpc(row.desktopId, 'recordStop', [], STOP_TIMEOUT_MS).catch(() => {})
  ctx.log.info({ recordingId: row.id, buildId }, 'recording cancelled')
  ctx.events.emit('build.changed', buildId)
  return toView(cancelled)
}

/** Input from a remote viewer, performed on the desktop like a person's (only the holder's). */
export async function sendInput(
  ctx: AppContext,
  hub: AgentHub,
  buildId: string,
  recordingId: string,
  by: RecordingActor,
  input: unknown,
): Promise<void> {
  const checked = checkInput(input)
  const row = settleStale(ctx, requireRecording(ctx, buildId, recordingId), hub)
  requireActive(row, by, 'input')
  // The kind only: typed text may be a password.
  ctx.log.debug({ recordingId, kind: checked.kind }, 'remote input')
  try {
    await hub.rpc(row.desktopId, 'input', [row.windowId, checked], CALL_TIMEOUT_MS)
  } catch (err) {
    // The desktop says why the input cannot be done there (nothing focused, no drop-down): the
    // person's to fix, not the desktop's failure.
    const code = isDriverError(err)
      ? ((err as AppError).details!.driverError as { code?: string })?.code
      : undefined
    if (code !== 'UNSUPPORTED_ACTION' && code !== 'BLOCKED_BY_DIALOG') throw err
    const message = (err as Error).message.replace(/^input failed on the desktop: [A-Z_]+: /, '')
    throw new AppError('INPUT_NOT_TAKEN', message, { kind: checked.kind })
  }
}

/** The stored recording (no agent call). */
export function getRecording(ctx: AppContext, buildId: string, recordingId: string): RecordingView {
  return toView(settleStale(ctx, requireRecording(ctx, buildId, recordingId)))
}

/** A build's recordings, oldest first. */
export function listRecordings(ctx: AppContext, buildId: string): RecordingView[] {
  getBuild(ctx, buildId)
  return recordingsOfBuild(ctx, buildId).map((r) => toView(settleStale(ctx, r)))
}

/** Who is demonstrating on a desktop ("being demonstrated by …"), or null. */
export function activeRecordingFor(
  ctx: AppContext,
  desktopId: string,
): { id: string; buildId: string; startedBy: string; startedAt: string; windowId: string } | null {
  const row = recordingOnDesktop(ctx, desktopId)
  const active = row && settleStale(ctx, row)
  if (active?.status !== 'recording') return null
  return {
    id: active.id,
    buildId: active.buildId,
    startedBy: active.startedBy,
    startedAt: active.startedAt,
    windowId: active.windowId,
  }
}

/** A screenshot of a stopped recording, by the seq its actions' `screenshotUrl` names. */
export async function recordingScreenshot(
  ctx: AppContext,
  buildId: string,
  recordingId: string,
  seq: string,
): Promise<Bun.BunFile> {
  const row = requireRecording(ctx, buildId, recordingId)
  const n = /^[1-9]\d{0,5}$/.test(seq) ? Number(seq) : undefined
  const has = n !== undefined && row.actions.some((a) => a.shot === n)
  if (!has) throw new AppError('NOT_FOUND', `Recording ${recordingId} has no screenshot ${seq}`)
  const file = Bun.file(screenshotPath(ctx, row.id, n))
  if (!(await file.exists()))
    throw new AppError('NOT_FOUND', `Screenshot ${seq} of recording ${recordingId} is not on disk (removed?)`)
  return file
}

function fail(ctx: AppContext, row: RecordingRow, error: string): void {
  updateRecording(ctx, row.id, 'recording', {
    status: 'failed',
    endedAt: ctx.clock.now().toISOString(),
    error,
  })
  ctx.events.emit('build.changed', row.buildId)
}
