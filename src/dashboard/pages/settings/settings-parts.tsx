// The pieces the settings lists share (keys, people, deliveries): the table, a row's one action,
// and the card whose form adds or changes something.
import type { ComponentChildren } from 'preact'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { Csrf } from '../../ui/layout.tsx'
import { Notice } from '../../ui/parts.tsx'

/** A list in its scrolling frame: one header cell a column, then the rows. */
export function SettingsTable({ columns, children }: { columns: string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/**
 * A row's action (revoke, resend): one button posting with the CSRF token, after the island asks
 * `confirm` when it is given. `fields` are hidden inputs sent along.
 */
export function RowAction(props: {
  action: string
  signedIn: SignedIn
  kind: 'danger' | 'secondary'
  /** The button's accessible name: which row it acts on. */
  label: string
  confirm?: string
  fields?: ComponentChildren
  children: ComponentChildren
}) {
  return (
    <form method="post" action={props.action} data-confirm={props.confirm}>
      <Csrf signedIn={props.signedIn} />
      {props.fields}
      <button type="submit" class={props.kind} aria-label={props.label}>
        {props.children}
      </button>
    </form>
  )
}

/** A card with a heading and a form: the CSRF token, why the last try was refused, the fields, the button. */
export function FormCard(props: {
  /** The heading's id, which names the card. */
  id: string
  title: string
  action: string
  signedIn: SignedIn
  error?: string
  submit: string
  children: ComponentChildren
}) {
  return (
    <section class="card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <form method="post" action={props.action} class="stack">
        <Csrf signedIn={props.signedIn} />
        {props.error && (
          <Notice kind="error">
            <p>{props.error}</p>
          </Notice>
        )}
        {props.children}
        <div>
          <button type="submit">{props.submit}</button>
        </div>
      </form>
    </section>
  )
}
