import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { requestState } from '../../../http/request-state.ts'
import { type AuditRowView, listAudit } from '../../../modules/audit/list.ts'
import { type AuditVerdict, verifyAudit } from '../../../modules/audit/verify.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { htmlResponse } from '../../http.ts'
import { Empty, Notice, Time } from '../../ui/parts.tsx'
import { adminOf, SettingsPage } from './shell.tsx'

const PAGE_SIZE = 50
const FAMILIES = ['job', 'desktop', 'key', 'user', 'settings', 'recording', 'execution', 'audit'] as const

interface AuditPageQuery {
  action?: string
  before?: number
}

function parseQuery(params: URLSearchParams): AuditPageQuery {
  const action = params.get('action') ?? ''
  const before = params.get('before') ?? ''
  return {
    action: (FAMILIES as readonly string[]).includes(action) ? action : undefined,
    before: /^\d{1,15}$/.test(before) ? Number(before) : undefined,
  }
}

const auditHref = (q: AuditPageQuery) => {
  const p = new URLSearchParams()
  if (q.action) p.set('action', q.action)
  if (q.before !== undefined) p.set('before', String(q.before))
  const s = p.toString()
  return s ? `/_/settings/audit?${s}` : '/_/settings/audit'
}

function Verdict({ verdict }: { verdict: AuditVerdict }) {
  return verdict.ok ? (
    <Notice kind="ok">
      <p>
        The chain of {verdict.rows} row(s) is intact
        {verdict.firstId > 1 &&
          ` from row ${verdict.firstId} (older rows were removed after --audit-days, recorded in row ${verdict.prunedBy})`}
        . Its head is <code class="wrap">{verdict.lastHash}</code>: keep a copy elsewhere to tell later
        whether the whole log was rewritten.
      </p>
    </Notice>
  ) : (
    <Notice kind="error">
      <p>
        The audit log is broken at row {verdict.brokenAt}: {verdict.reason}. Rows from it on cannot be
        trusted.
      </p>
    </Notice>
  )
}

/** `key value` pairs that wrap anywhere: ids and paths are long and have no spaces. */
function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details)
  if (!entries.length) return <span class="muted">—</span>
  return (
    <span class="wrap">
      {entries.map(([k, v], i) => (
        <span key={k}>
          {i > 0 && ' · '}
          <span class="muted">{k}</span> {typeof v === 'string' ? v : JSON.stringify(v)}
        </span>
      ))}
    </span>
  )
}

function AuditTable({ rows }: { rows: AuditRowView[] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.id}</td>
              <td>
                <Time at={r.at} />
              </td>
              <td class="wrap">
                <span class="muted">{r.actor.kind}</span> {r.actor.label}
              </td>
              <td>
                <code>{r.action}</code>
              </td>
              <td class="wrap">
                {r.target.kind} <code>{r.target.id}</code>
              </td>
              <td class="wrap">
                <Details details={r.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function AuditPage(props: { ctx: AppContext; signedIn: SignedIn; q: AuditPageQuery }) {
  const { q } = props
  const found = listAudit(props.ctx, { action: q.action, before: q.before, limit: PAGE_SIZE + 1 })
  const rows = found.slice(0, PAGE_SIZE)
  const older = found.length > PAGE_SIZE ? rows[rows.length - 1]!.id : undefined
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={props.signedIn}
      tab="audit"
      title="Audit log"
      sub="Who changed what, newest first: promotions, desktops, keys, people, settings and recordings. Each row is chained to the one before by a SHA-256 hash, so an edit shows (deskhook audit verify)."
    >
      {q.before === undefined && <Verdict verdict={verifyAudit(props.ctx)} />}
      <form method="get" action="/_/settings/audit" class="filters" aria-label="Filter the audit log">
        <label class="inline">
          Action
          <select name="action">
            <option value="">All</option>
            {FAMILIES.map((f) => (
              <option value={f} selected={q.action === f} key={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      {rows.length === 0 ? (
        <Empty>Nothing recorded{q.action ? ` for ${q.action}` : ''} yet.</Empty>
      ) : (
        <AuditTable rows={rows} />
      )}
      {(q.before !== undefined || older !== undefined) && (
        <nav class="pager" aria-label="Pages of the audit log">
          {q.before !== undefined ? (
            <a href={auditHref({ action: q.action })} rel="prev">
              ← Newest
            </a>
          ) : (
            <span />
          )}
          {older !== undefined && (
            <a href={auditHref({ action: q.action, before: older })} rel="next">
              Older →
            </a>
          )}
        </nav>
      )}
    </SettingsPage>
  )
}

/** The audit log (admins only): paged newest first, with the chain's verdict on the first page. */
export const settingsAuditPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings.audit' }).get('/_/settings/audit', ({ request }) => {
    const signedIn = adminOf(request)
    const q = parseQuery(requestState(request).url.searchParams)
    return htmlResponse(<AuditPage ctx={ctx} signedIn={signedIn} q={q} />)
  })
