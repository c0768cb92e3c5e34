import type { ComponentChildren } from 'preact'

/** A status or mode as a coloured pill; the class says which colour. */
export function Badge({ value, label }: { value: string; label?: string }) {
  return (
    <span class={`badge badge-${value.replace(/[^a-z_]/gi, '')}`}>{label ?? value.replaceAll('_', ' ')}</span>
  )
}

/** A time shown in UTC with the exact instant in the tooltip (pages render on the server). */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>
  const d = new Date(at)
  return (
    <time datetime={d.toISOString()} title={d.toISOString()}>
      {d.toISOString().slice(0, 16).replace('T', ' ')} UTC
    </time>
  )
}

/** Text with a copy button (the island copies `data-copy`'s text). */
export function Copyable({ text, label, multiline }: { text: string; label: string; multiline?: boolean }) {
  return (
    <div class={multiline ? 'copyable multiline' : 'copyable'}>
      {multiline ? <pre>{text}</pre> : <code>{text}</code>}
      <button type="button" class="secondary" data-copy={text} aria-label={`Copy ${label}`}>
        Copy
      </button>
    </div>
  )
}

export function Notice({ kind, children }: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>
}

/** Page header: title and optional actions on the right. */
export function PageHead({
  title,
  sub,
  children,
}: {
  title: ComponentChildren
  sub?: ComponentChildren
  children?: ComponentChildren
}) {
  return (
    <div class="page-head">
      <div>
        <h1>{title}</h1>
        {sub && <p class="sub">{sub}</p>}
      </div>
      {children && <div class="actions">{children}</div>}
    </div>
  )
}

/** JSON for a person: indented, secrets masked by the caller (ui/mask.ts). */
export const Json = ({ value }: { value: unknown }) => (
  <pre class="json">{JSON.stringify(value, null, 2)}</pre>
)
