import type { AppContext } from '../../context.ts'
import type { BuildQuestion } from '../../db/schema/index.ts'
import type { Build } from '../../modules/builds/service.ts'
import type { RecordingView } from '../../modules/recordings/model.ts'
import { activeRecordingFor, listRecordings, recordingStatus } from '../../modules/recordings/service.ts'
import type { UserView } from '../../modules/users/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { Csrf } from '../ui/layout.tsx'
import { Notice } from '../ui/parts.tsx'

/** Teaching is open to every role there is (members create jobs and answer questions too). */
const TEACHING_ROLES: ReadonlySet<string> = new Set(['admin', 'member'])
export const mayDemonstrate = (user: Pick<UserView, 'role'>) => TEACHING_ROLES.has(user.role)

/** Who a dashboard person is to a recording (the service's actor: an API key is named by its prefix). */
export const actorOf = (signedIn: SignedIn) => signedIn.user.email

/** What the `demonstrate` card shows: where it records, and who holds the desktop now. */
export interface DemonstrateCard {
  desktop: { id: string; name: string } | null
  /** The running recording on that desktop, if any, with `mine` for the person viewing. */
  recording: (RecordingView & { mine: boolean }) | null
  /** Why the person's last recording of this build ended without an answer (it failed). */
  lastProblem: string | null
}

/** The desktop the build works on: the one it holds, else the one its teach call named. */
export function buildDesktop(
  hub: Pick<AgentHub, 'onlineDesktops' | 'heldBy'>,
  build: Pick<Build, 'id' | 'desktop'>,
) {
  const online = hub.onlineDesktops()
  return (
    online.find((d) => hub.heldBy(d.id) === build.id) ??
    (build.desktop ? online.find((d) => d.id === build.desktop || d.name === build.desktop) : undefined) ??
    null
  )
}

/** The running recording of the build's desktop, in the shape the card and the island read. */
export async function currentRecording(
  ctx: AppContext,
  hub: AgentHub,
  build: Pick<Build, 'id' | 'desktop'>,
  signedIn: SignedIn,
  opts: { live: boolean },
): Promise<DemonstrateCard['recording']> {
  const desktop = buildDesktop(hub, build)
  const active = desktop ? activeRecordingFor(ctx, desktop.id) : null
  if (!active) return null
  const mine = active.startedBy === actorOf(signedIn) && active.buildId === build.id
  // The agent's count and recent actions: one call, made only for the holder's page. (A status
  // call that crosses the holder's stop would find the agent no longer recording and fail the
  // recording: only the holder's own page asks, and it stops asking before it stops.)
  const view =
    opts.live && mine ? await recordingStatus(ctx, hub, build.id, active.id).catch(() => null) : null
  if (view && view.status !== 'recording') return null
  return {
    ...(view ?? {
      id: active.id,
      buildId: active.buildId,
      desktopId: desktop!.id,
      windowId: active.windowId,
      status: 'recording',
      startedBy: active.startedBy,
      startedAt: active.startedAt,
      endedAt: null,
      window: null,
      actions: [],
      actionCount: 0,
      recent: [],
      error: null,
      screenUrl: `/_builds/${active.buildId}/screen`,
    }),
    mine,
  }
}

export async function demonstrateCard(
  ctx: AppContext,
  hub: AgentHub,
  build: Build,
  signedIn: SignedIn,
): Promise<DemonstrateCard> {
  const found = buildDesktop(hub, build)
  const recording = await currentRecording(ctx, hub, build, signedIn, { live: true })
  const last = recording ? undefined : listRecordings(ctx, build.id).at(-1)
  const lastProblem =
    last?.status === 'failed' && last.startedBy === actorOf(signedIn) ? (last.error ?? 'it failed') : null
  return { desktop: found ? { id: found.id, name: found.name } : null, recording, lastProblem }
}

const actionsRecorded = (n: number) => `${n} ${n === 1 ? 'action' : 'actions'} recorded`

function RecentActions({ recording }: { recording: RecordingView }) {
  return (
    <div class="recorded">
      <p>
        <strong data-recording-count>{actionsRecorded(recording.actionCount)}</strong>
      </p>
      {/* The recorder's words; a password field's value is never among them ("Typed a secret…"). */}
      <ol class="progress" data-recording-recent aria-live="polite" aria-label="Recent actions">
        {recording.recent.map((text, i) => (
          <li key={i}>{text}</li>
        ))}
      </ol>
    </div>
  )
}

function LivePreview(props: { desktop: { id: string; name: string }; interactive?: string }) {
  const { desktop, interactive } = props
  const status = (
    <p class="muted" data-preview-status>
      Waiting for the first frame…
    </p>
  )
  if (!interactive)
    return (
      <div class="preview" data-preview={desktop.id}>
        <img alt={`Live preview of ${desktop.name}`} hidden />
        {status}
      </div>
    )
  return (
    <>
      <div
        class="preview remote"
        data-preview={desktop.id}
        data-remote-input={interactive}
        tabindex={0}
        role="application"
        aria-label={`Interactive preview of ${desktop.name}: clicks and keys here go to the desktop`}
        aria-describedby="remote-help"
      >
        <img alt={`Live preview of ${desktop.name}`} hidden />
        {status}
      </div>
      <p id="remote-help" class="small muted">
        Click on the picture to click there on the desktop; while the preview has focus, what you type goes to
        the desktop (Enter, Tab, Escape, Backspace and the arrow keys too). Shift+Tab leaves the preview.
      </p>
      <p class="small" role="status" data-remote-status />
    </>
  )
}

/** The card of a `demonstrate` question: start, then do the task (at the PC or on the preview), then Done. */
export function DemonstrateQuestion(props: {
  buildId: string
  question: BuildQuestion
  signedIn: SignedIn
  card: DemonstrateCard
}) {
  const { buildId, question: q, signedIn, card } = props
  const { desktop, recording } = card
  const base = `/_/builds/${buildId}/recordings`
  const allowed = mayDemonstrate(signedIn.user)
  return (
    <section
      class="card demonstrate"
      aria-labelledby="question-head"
      data-demonstrate={buildId}
      data-recording-id={recording?.id ?? ''}
    >
      <h2 id="question-head">Show the builder how</h2>
      <p>{q.text}</p>
      <p>
        {desktop ? (
          <>
            It records on desktop <strong>{desktop.name}</strong>
            {recording?.window?.title ? (
              <>
                , in the window “<span>{recording.window.title}</span>”
              </>
            ) : (
              ', in the window the build left open'
            )}
            .
          </>
        ) : (
          'The desktop of this build is not connected: start its deskhook agent, then reload this page.'
        )}
      </p>
      {card.lastProblem && (
        <Notice kind="error">
          <p>The last recording did not finish: {card.lastProblem}</p>
        </Notice>
      )}
      {!desktop ? null : !recording ? (
        <div class="stack">
          {allowed ? (
            <form method="post" action={base} class="stack">
              <Csrf signedIn={signedIn} />
              <input type="hidden" name="questionId" value={q.id} />
              <p class="small muted">
                Start recording, then do the task once: at the PC itself, or here on the live preview, which
                then takes your clicks and keys. Press Done when the task is finished.
              </p>
              <div>
                <button type="submit">Start recording</button>
              </div>
            </form>
          ) : (
            <p class="muted">
              Only people who may teach jobs can demonstrate; ask an admin of this workspace.
            </p>
          )}
          <LivePreview desktop={desktop} />
        </div>
      ) : recording.mine ? (
        <div class="stack">
          <Notice kind="info">
            <p>Recording. Do the task once, at the PC or on the preview below, then press Done.</p>
          </Notice>
          <LivePreview desktop={desktop} interactive={`${base}/${recording.id}/input`} />
          <RecentActions recording={recording} />
          <div class="actions">
            <form method="post" action={`${base}/${recording.id}/done`}>
              <Csrf signedIn={signedIn} />
              <input type="hidden" name="questionId" value={q.id} />
              <button type="submit">Done</button>
            </form>
            <form method="post" action={`${base}/${recording.id}/cancel`}>
              <Csrf signedIn={signedIn} />
              <button type="submit" class="secondary">
                Cancel
              </button>
            </form>
          </div>
        </div>
      ) : (
        <div class="stack">
          <Notice kind="info">
            <p>
              Being demonstrated by <strong>{recording.startedBy}</strong>. The desktop is theirs until they
              press Done or Cancel.
            </p>
          </Notice>
          <LivePreview desktop={desktop} />
        </div>
      )}
    </section>
  )
}
