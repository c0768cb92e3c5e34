import type { ComponentChildren } from 'preact'

/**
 * A JSON textarea checked as the person types (islands/json-input.ts): the status line under it
 * says "Valid JSON object" or where the text goes wrong, and the form's submit button is disabled
 * while it is wrong. `error` is the server's own check, shown when the page comes back with it.
 */
export function JsonField(props: {
  name: string
  label: ComponentChildren
  value: string
  optional?: boolean
  error?: string
  rows?: number
  placeholder?: string
}) {
  const statusId = `${props.name}-status`
  return (
    <div class="json-field">
      <label>
        {props.label}
        <textarea
          name={props.name}
          rows={props.rows ?? 8}
          spellcheck={false}
          autocomplete="off"
          placeholder={props.placeholder}
          data-json-input={statusId}
          data-json-optional={props.optional ? 'true' : undefined}
          aria-describedby={statusId}
          aria-invalid={props.error ? 'true' : undefined}
        >
          {props.value}
        </textarea>
      </label>
      <p id={statusId} class={props.error ? 'json-status json-bad' : 'json-status'} aria-live="polite">
        {props.error ?? ''}
      </p>
    </div>
  )
}
