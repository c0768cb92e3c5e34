/**
 * Credentials of the app that travel in its URLs (a feed's `?key=…`, a `;jsessionid`-style
 * `sid=`, an OAuth `#access_token=`): the builder reads addresses off the screen and would write
 * them into progress, logs and exports. These parameters' values are masked there.
 *
 * Automations are not masked with this: a job that must open such an address needs the value, and
 * one that equals a job secret already becomes `{{$secrets.NAME}}` (templateSecrets).
 */
export const URL_CREDENTIAL_PARAMS = [
  'key',
  'token',
  'session',
  'sid',
  'auth',
  'apikey',
  'api_key',
  'access_token',
  'password',
  'passwd',
] as const

export const URL_CREDENTIAL_MASK = '***'

// A parameter starts after `?`, `&`, `;` or `#` (fragments carry OAuth tokens); its value runs to
// the next separator (`?` too), quote, space or bracket, so a URL inside a sentence or JSON stays intact.
const PARAM = new RegExp(`([?&;#](?:${URL_CREDENTIAL_PARAMS.join('|')})=)([^?&;#\\s"'<>()\\]\\[]+)`, 'gi')

/** `text` with every credential parameter's value replaced by `***`. */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('=')) return text
  return text.replace(PARAM, (_, name: string) => `${name}${URL_CREDENTIAL_MASK}`)
}

/** The same, in every string of a value (object keys left alone); unchanged values are returned as is. */
export function maskUrlCredentialsIn<T>(value: T): T {
  if (typeof value === 'string') return maskUrlCredentials(value) as T
  if (Array.isArray(value)) {
    const out = value.map((v) => maskUrlCredentialsIn(v))
    return (out.some((v, i) => v !== value[i]) ? out : value) as T
  }
  if (value !== null && typeof value === 'object') {
    let changed = false
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      out[k] = maskUrlCredentialsIn(v)
      if (out[k] !== v) changed = true
    }
    return (changed ? out : value) as T
  }
  return value
}
