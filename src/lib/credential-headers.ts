/**
 * Request headers that carry a caller's credentials. They are dropped from a call's `_http.headers`
 * before anything is stored, sent to an agent or exported: a job never needs the caller's own
 * credentials, and the data dir (and exported job files kept in git) must never hold them.
 * A header counts when one of its dash-separated words says so (`authorization`, `cookie`,
 * `x-auth-token`, `x-csrf-token`, `x-api-key`, `x-hub-signature-256`, …). Migration
 * 0007_scrub_credential_headers applies the same rule to rows stored before it.
 */
const CREDENTIAL =
  /(^|-)(auth|authorization|cookie|token|secret|password|passwd|session|csrf|xsrf|api-key|apikey|signature)(-|$)/

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL.test(name.toLowerCase())
}
