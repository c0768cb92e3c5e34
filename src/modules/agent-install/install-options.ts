import { ENROLLMENT_TOKEN_PREFIX } from '../desktops/service.ts'

/** What `install.ps1?token=…&name=…&startUrl=…` asks for; every member may be empty. */
export interface InstallOptions {
  token: string
  name: string
  startUrl: string
}

/**
 * An enrollment token as the server makes them: the prefix and 43 base62 characters, and under
 * TLS `~` and the 64-hex fingerprint agents pin. The shape alone is checked: the script carries
 * no secret of the server's, and the agent's enrollment is what spends the token.
 */
const TOKEN = new RegExp(`^${ENROLLMENT_TOKEN_PREFIX}[0-9A-Za-z]{43}(?:~[0-9a-f]{64})?$`)
/** As the dashboard's "Connect a desktop" form allows (src/dashboard/pages/desktops.tsx). */
const NAME = /^[\p{L}\p{N} ._-]{1,64}$/u

/** The options, or the problem to answer with (400). Never repeats a token it refuses. */
export function readInstallOptions(query: URLSearchParams): InstallOptions | { problem: string } {
  const one = (key: string) => {
    const values = query.getAll(key)
    return values.length > 1 ? undefined : (values[0] ?? '')
  }
  const token = one('token')
  const name = one('name')?.trim()
  const startUrl = one('startUrl')?.trim()
  if (token === undefined || name === undefined || startUrl === undefined)
    return { problem: 'Give each of token, name and startUrl at most once.' }
  if (token && !TOKEN.test(token))
    return {
      problem:
        `The token is not an enrollment token (${ENROLLMENT_TOKEN_PREFIX} and 43 letters and digits). ` +
        'Copy the whole command from the dashboard again (Desktops > Connect a desktop).',
    }
  if (name && !NAME.test(name))
    return { problem: 'The name may have up to 64 letters, digits, spaces, dots, dashes and underscores.' }
  if (startUrl && !(/^https?:\/\/[^\s'"]+$/.test(startUrl) && URL.canParse(startUrl)))
    return { problem: 'The startUrl must be an http(s) URL, such as https://crm.example.lan/' }
  // The URL's own normal form is ASCII, with no backslash or quote to upset a command line.
  return { token, name, startUrl: startUrl && new URL(startUrl).href }
}
