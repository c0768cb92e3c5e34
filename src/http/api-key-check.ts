import type { KeyAccess, KeyGrant } from '../modules/keys/model.ts'

/** Who a presented API key belongs to, and what it may do. */
export type ApiKeyIdentity = KeyGrant

/**
 * The port through which the HTTP gate checks an `x-api-key`: the composition root plugs the
 * keys module's verification in, so HTTP code never imports a feature module's service.
 * `authorize` returns the key's grant, or throws the answer: `401 UNAUTHORIZED` (alike for
 * missing, malformed, unknown, revoked and expired keys), `429 RATE_LIMITED` or `403 FORBIDDEN_SCOPE`.
 */
export interface ApiKeyCheck {
  authorize(presented: string | null | undefined, access: KeyAccess): ApiKeyIdentity
}
