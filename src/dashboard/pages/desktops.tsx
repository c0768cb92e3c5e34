import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { agentExeMissing, findAgentExe } from '../../modules/agent-install/agent-exe.ts'
import { windowsInstallCommand } from '../../modules/agent-install/service.ts'
import { requestActor } from '../../modules/audit/request-actor.ts'
import { createEnrollmentToken, getDesktop, revokeDesktop } from '../../modules/desktops/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { drives } from '../../protocol/driver.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { requireAdmin } from '../gate.ts'
import { htmlResponse, redirect } from '../http.ts'
import { Csrf, Layout } from '../ui/layout.tsx'
import { Badge, Copyable, Empty, Notice, PageHead, Time } from '../ui/parts.tsx'
import { desktopPreviewRoutes } from './desktop-preview.ts'
import { type Activity, type DesktopCard, desktopCards } from './desktops-data.ts'

/** A new token, shown once: the POST's own response is the only place it appears. */
interface Enrollment {
  token: string
  expiresAt: string
  command: string
  /** The PowerShell one-liner that installs the agent on a Windows PC, and why it cannot yet. */
  windows: { command: string; missing?: string }
}

interface ConnectForm {
  name: string
  startUrl: string
  error?: string
}

const NAME = /^[\p{L}\p{N} ._-]{1,64}$/u

/**
 * Quotes an argument for the shells a PC has: double quotes mean the same in cmd, PowerShell and
 * POSIX shells when the value has none of their special characters; else single quotes (literal
 * in PowerShell and POSIX shells; the form refuses values with a quote of either kind).
 */
const shellArg = (value: string) =>
  /^[\w.:/@+=,-]+$/.test(value) ? value : /["$`%!\\]/.test(value) ? `'${value}'` : `"${value}"`

/** The exact command for the PC: the agent's own flags (src/cli/agent.ts). */
export function agentCommand(server: string, token: string, form: Omit<ConnectForm, 'error'>): string {
  const parts = ['deskhook', 'agent', '--server', shellArg(server), '--token', shellArg(token)]
  if (form.name) parts.push('--name', shellArg(form.name))
  if (form.startUrl) parts.push('--start-url', shellArg(form.startUrl))
  return parts.join(' ')
}

function readConnectForm(body: unknown): ConnectForm {
  const raw = (body ?? {}) as Record<string, unknown>
  const name = typeof raw.name === 'string' ? raw.name.trim() : ''
  const startUrl = typeof raw.startUrl === 'string' ? raw.startUrl.trim() : ''
  const form: ConnectForm = { name, startUrl }
  if (name && !NAME.test(name))
    form.error = 'The name may have up to 64 letters, digits, spaces, dots, dashes and underscores'
  else if (startUrl && !(/^https?:\/\/[^\s'"]+$/.test(startUrl) && URL.canParse(startUrl)))
    form.error = 'The app URL must be an http(s) URL, such as https://crm.example.lan/'
  return form
}

const isLoopback = (url: string) => /^https?:\/\/(127\.|localhost|\[::1\])/.test(url)

function ActivityLine({ a }: { a: Activity }) {
  const route = `${a.method} ${a.path}`
  return a.kind === 'run' ? (
    <a href={`/_/runs/${a.seq}`}>
      Run #{a.seq} of <code>{route}</code>
    </a>
  ) : (
    <a href={`/_/builds/${a.id}`}>
      Building <code>{route}</code> <Badge value={a.status} />
    </a>
  )
}

function DesktopItem({ d, admin, signedIn }: { d: DesktopCard; admin: boolean; signedIn: SignedIn }) {
  const watchable = d.live === 'online' || d.live === 'busy'
  return (
    <li class="card desktop">
      <div class="desktop-head">
        <h2>{d.name}</h2>
        <Badge value={d.live} />
        {reachable(d) && <Badge value={d.sessionState!} />}
      </div>
      {reachable(d) && (
        <p class="notice notice-info" data-session={d.sessionState}>
          {SESSION_NOTES[d.sessionState!]}
        </p>
      )}
      <dl class="facts">
        <div>
          <dt>Last seen</dt>
          <dd>
            <Time at={d.lastSeenAt} />
          </dd>
        </div>
        <div>
          <dt>Platform</dt>
          <dd>{d.platform}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>{[d.driver, drives(d.driver)].filter(Boolean).join(' — ')}</dd>
        </div>
        <div>
          <dt>Agent</dt>
          <dd>{d.agentVersion ?? '—'}</dd>
        </div>
        <div>
          <dt>Running</dt>
          <dd>
            {d.activity.length ? (
              d.activity.map((a) => (
                <div key={a.kind === 'run' ? a.seq : a.id}>
                  <ActivityLine a={a} />
                </div>
              ))
            ) : (
              <span class="muted">nothing</span>
            )}
          </dd>
        </div>
        {d.demonstratedBy && (
          <div>
            <dt>Demonstration</dt>
            <dd>
              Being demonstrated by <strong>{d.demonstratedBy.by}</strong> (build{' '}
              <a href={`/_/builds/${d.demonstratedBy.buildId}`}>{d.demonstratedBy.buildId.slice(0, 8)}</a>)
            </dd>
          </div>
        )}
      </dl>
      {watchable ? (
        <div class="preview" data-preview={d.id}>
          <img alt={`Live preview of ${d.name}`} hidden />
          <p class="muted" data-preview-status>
            Waiting for the first frame…
          </p>
        </div>
      ) : d.live === 'offline' ? (
        <div class="preview">
          <p class="muted">Offline — no preview</p>
        </div>
      ) : null}
      {d.revokedAt ? (
        <p class="small muted">
          Revoked <Time at={d.revokedAt} />
        </p>
      ) : (
        admin && (
          <form
            method="post"
            action={`/_/desktops/${d.id}/revoke`}
            data-confirm={`Revoke desktop “${d.name}”? Its agent is disconnected now and can never reconnect.`}
          >
            <Csrf signedIn={signedIn} />
            <button type="submit" class="danger" aria-label={`Revoke desktop ${d.name}`}>
              Revoke
            </button>
          </form>
        )
      )}
    </li>
  )
}

function ConnectDesktop(props: {
  signedIn: SignedIn
  server: string
  form: ConnectForm
  enrolled?: Enrollment
}) {
  const { form, enrolled } = props
  return (
    <section class="card connect" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a desktop</h2>
      {enrolled ? (
        <div class="stack">
          <Notice kind="ok">
            <p>
              Run this on the PC, in the session of the user whose desktop it drives. The token works once and
              expires <Time at={enrolled.expiresAt} />; it is not shown again.
            </p>
          </Notice>
          <Copyable multiline text={enrolled.command} label="agent command" />
          <p class="small muted">
            On Windows the program is <code>deskhook.exe</code>. Once enrolled, the agent keeps its own
            credential: later starts need no token.
          </p>
          <p>
            Or, on a Windows PC, paste this into PowerShell in that user's session: it installs the agent for
            the user (no admin rights), enrolls it with the same token and starts it at every logon.
          </p>
          <Copyable multiline text={enrolled.windows.command} label="Windows install command" />
          {enrolled.windows.missing && (
            <Notice kind="info">
              <pre>{enrolled.windows.missing}</pre>
            </Notice>
          )}
        </div>
      ) : (
        <p class="muted">
          Make a one-time enrollment token and the command that starts the agent on the PC with the app.
        </p>
      )}
      {isLoopback(props.server) && (
        <Notice kind="info">
          <p>
            This server's address, <code>{props.server}</code>, works only on this machine. Start the server
            with <code>--public-url http://&lt;its name&gt;:&lt;port&gt;</code> so that desktops can reach it.
          </p>
        </Notice>
      )}
      {form.error && (
        <Notice kind="error">
          <p>{form.error}</p>
        </Notice>
      )}
      <form method="post" action="/_/desktops/connect" class="stack">
        <Csrf signedIn={props.signedIn} />
        <label>
          Desktop name (optional; default: the PC's host name)
          <input name="name" value={form.name} maxLength={64} autocomplete="off" />
        </label>
        <label>
          App URL (optional; the page the agent opens when it starts)
          <input name="startUrl" type="url" value={form.startUrl} placeholder="https://crm.example.lan/" />
        </label>
        <div>
          <button type="submit">{enrolled ? 'Make another token' : 'Make an enrollment token'}</button>
        </div>
      </form>
    </section>
  )
}

export function DesktopsPage(props: {
  signedIn: SignedIn
  workspace: string
  desktops: DesktopCard[]
  server: string
  form?: ConnectForm
  enrolled?: Enrollment
  revoked?: string
}) {
  const { signedIn } = props
  const admin = signedIn.user.role === 'admin'
  return (
    <Layout title="Desktops" section="desktops" signedIn={signedIn} workspace={props.workspace}>
      <PageHead title="Desktops" sub="The PCs running the deskhook agent: jobs run and are taught on them." />
      {props.revoked && (
        <Notice kind="ok">
          <p>Desktop “{props.revoked}” was revoked; its agent was disconnected.</p>
        </Notice>
      )}
      {admin && (
        <ConnectDesktop
          signedIn={signedIn}
          server={props.server}
          form={props.form ?? { name: '', startUrl: '' }}
          enrolled={props.enrolled}
        />
      )}
      {props.desktops.length === 0 ? (
        <Empty>
          No desktops yet.{' '}
          {admin ? 'Connect one above.' : 'An admin of this workspace connects one with “Connect a desktop”.'}
        </Empty>
      ) : (
        <ul class="desktops">
          {props.desktops.map((d) => (
            <DesktopItem d={d} admin={admin} signedIn={signedIn} key={d.id} />
          ))}
        </ul>
      )}
    </Layout>
  )
}

export const desktopsPage = (ctx: AppContext, hub: AgentHub) => {
  const render = (request: Request, extra: Partial<Parameters<typeof DesktopsPage>[0]>, status = 200) =>
    htmlResponse(
      <DesktopsPage
        signedIn={requestState(request).signedIn!}
        workspace={workspaceName(ctx)}
        desktops={desktopCards(ctx, hub)}
        server={baseUrl(ctx)}
        {...extra}
      />,
      { status },
    )
  return new Elysia({ name: 'dashboard.desktops' })
    .use(desktopPreviewRoutes(ctx, hub))
    .get('/_/desktops', ({ request, query }) => {
      const revoked = typeof query.revoked === 'string' ? getDesktop(ctx, query.revoked) : undefined
      return render(request, { revoked: revoked?.revokedAt ? revoked.name : undefined })
    })
    .post('/_/desktops/connect', async ({ request, body }) => {
      requireAdmin(requestState(request).signedIn)
      const form = readConnectForm(body)
      if (form.error) return render(request, { form }, 400)
      const { token, expiresAt } = createEnrollmentToken(ctx)
      const command = agentCommand(baseUrl(ctx), token, form)
      const windows = {
        command: windowsInstallCommand(baseUrl(ctx), token, form),
        missing: (await findAgentExe(ctx)) ? undefined : agentExeMissing(ctx, { exactPlaces: true }),
      }
      return render(request, { enrolled: { token, expiresAt, command, windows } })
    })
    .post('/_/desktops/:id/revoke', ({ request, params }) => {
      requireAdmin(requestState(request).signedIn)
      if (!getDesktop(ctx, params.id)) throw new AppError('NOT_FOUND', 'No such desktop')
      const desktop = revokeDesktop(ctx, params.id, requestActor(ctx, request))
      return redirect(`/_/desktops?revoked=${encodeURIComponent(desktop.id)}`)
    })
}

/** A connected desktop whose session cannot be reached now (docs/windows.md). */
const reachable = (d: DesktopCard) =>
  (d.live === 'online' || d.live === 'busy') && d.sessionState != null && d.sessionState !== 'active'

/** What each session state means for runs, and what an admin can do (README, "Locked and disconnected sessions"). */
const SESSION_NOTES: Record<string, string> = {
  locked:
    "The PC's session is locked: runs wait for someone to unlock it (up to their timeout), then fail DESKTOP_LOCKED. " +
    'PCs that run jobs should not lock (a kiosk account that signs in by itself, or no screen lock for its user).',
  disconnected:
    'The Remote Desktop session is disconnected: nothing is drawn and no input reaches the apps. Runs wait for a ' +
    'reconnection (up to their timeout). Leave the session connected, or sign in at the console instead.',
  secure_desktop:
    'A UAC prompt or the Ctrl+Alt+Del screen is showing: runs wait until someone answers it (up to their timeout).',
  no_desktop:
    "The agent runs in session 0 (as a service) and can reach no desktop: start it in the user's session, at logon.",
}
