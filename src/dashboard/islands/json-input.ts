import { checkJsonObject } from '../ui/json-check.ts'

/**
 * JSON textareas checked as the person types: `<textarea data-json-input="status-id">` writes
 * "Valid JSON object" or the problem with its line and column into the element `status-id` (an
 * aria-live region), and disables its form's submit buttons while any such field is wrong.
 * `data-json-optional` lets the field stay empty. The server checks again on submit.
 */
export function startJsonInput(): void {
  document.querySelectorAll<HTMLTextAreaElement>('textarea[data-json-input]').forEach((field) => {
    field.addEventListener('input', () => update(field))
    update(field)
  })
}

const wrong = new WeakSet<HTMLTextAreaElement>()

function update(field: HTMLTextAreaElement): void {
  const status = document.getElementById(field.dataset.jsonInput ?? '')
  const optional = field.dataset.jsonOptional !== undefined
  const result = checkJsonObject(field.value, { optional })
  if (result.ok) wrong.delete(field)
  else wrong.add(field)
  if (status) {
    status.textContent = result.ok ? (result.value === undefined ? '' : 'Valid JSON object') : result.message
    status.classList.toggle('json-ok', result.ok && result.value !== undefined)
    status.classList.toggle('json-bad', !result.ok)
  }
  if (result.ok) field.removeAttribute('aria-invalid')
  else field.setAttribute('aria-invalid', 'true')
  const form = field.form
  if (!form) return
  const anyWrong = Array.from(form.querySelectorAll<HTMLTextAreaElement>('textarea[data-json-input]')).some(
    (f) => wrong.has(f),
  )
  form.querySelectorAll<HTMLButtonElement>('button[type="submit"], button:not([type])').forEach((button) => {
    button.disabled = anyWrong
  })
}
