import type { ComponentChildren } from 'preact'
import { MIN_PASSWORD_LENGTH } from '../../modules/users/service.ts'

/** The field of a password someone sets (first-run setup, an admin for a person); `children` is its label. Never kept in a refused form. */
export function NewPasswordField({ children }: { children: ComponentChildren }) {
  return (
    <label>
      {children}
      <input
        name="password"
        type="password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        autocomplete="new-password"
      />
    </label>
  )
}
