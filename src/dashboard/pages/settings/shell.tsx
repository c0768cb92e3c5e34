import type { ComponentChildren } from 'preact'
import type { AppContext } from '../../../context.ts'
import { requestState } from '../../../http/request-state.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { workspaceName } from '../../../modules/users/workspace.ts'
import { requireAdmin } from '../../gate.ts'
import { Layout } from '../../ui/layout.tsx'
import { Notice, PageHead } from '../../ui/parts.tsx'

export type SettingsTab = 'overview' | 'keys' | 'people' | 'webhooks' | 'deliveries' | 'retention' | 'audit'

const TABS: { tab: SettingsTab; href: string; label: string }[] = [
  { tab: 'overview', href: '/_/settings', label: 'Overview' },
  { tab: 'keys', href: '/_/settings/keys', label: 'API keys' },
  { tab: 'people', href: '/_/settings/people', label: 'People' },
  { tab: 'webhooks', href: '/_/settings/webhooks', label: 'Webhook secret' },
  { tab: 'deliveries', href: '/_/settings/deliveries', label: 'Webhook deliveries' },
  { tab: 'retention', href: '/_/settings/retention', label: 'Retention' },
  { tab: 'audit', href: '/_/settings/audit', label: 'Audit log' },
]

/**
 * Every settings page and action starts here: only admins manage keys, people and settings, and a
 * member is refused before anything is read or changed.
 */
export const adminOf = (request: Request): SignedIn => requireAdmin(requestState(request).signedIn)

/** Form fields as the dashboard's forms send them (url-encoded; missing fields are undefined). */
export type Form = Record<string, string | undefined>
export const formOf = (body: unknown): Form =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Form) : {}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The settings frame: the main layout, the page's heading and the settings sections' tabs. */
export function SettingsPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  tab: SettingsTab
  title: string
  sub?: ComponentChildren
  /** Shown under the heading: what the last action did, or why it was refused. */
  done?: string
  error?: string
  children: ComponentChildren
}) {
  const current = TABS.find((t) => t.tab === props.tab)!
  return (
    <Layout
      title={props.tab === 'overview' ? 'Settings' : `${props.title} · Settings`}
      section="settings"
      signedIn={props.signedIn}
      workspace={workspaceName(props.ctx)}
    >
      <div class="settings">
        <nav class="settings-tabs" aria-label="Settings sections">
          {TABS.map((t) => (
            <a href={t.href} key={t.tab} aria-current={t === current ? 'page' : undefined}>
              {t.label}
            </a>
          ))}
        </nav>
        <PageHead title={props.title} sub={props.sub} />
        {props.error && (
          <Notice kind="error">
            <p>{props.error}</p>
          </Notice>
        )}
        {props.done && (
          <Notice kind="ok">
            <p>{props.done}</p>
          </Notice>
        )}
        {props.children}
      </div>
    </Layout>
  )
}
