import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { type IpAddress, parseIpLiteral, refusalReason } from './address-policy.ts'

/** Resolves a hostname to every address it has (one is enough for an attacker to rebind to). */
export type Lookup = (hostname: string) => Promise<string[]>

export const systemLookup: Lookup = async (hostname) =>
  (await Bun.dns.lookup(hostname, {})).map((a) => a.address)

const MAX_URL_LENGTH = 2048

const refuse = (message: string) => new AppError('INVALID_CALLBACK_URL', message, { field: 'callback_url' })

/**
 * The syntactic checks: http(s), no credentials. WHATWG URL parsing already folds the odd IPv4
 * spellings (`2130706433`, `0177.0.0.1`, `0x7f.1`) into dotted form, exactly as fetch would read them.
 */
export function parseCallbackUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw refuse(`callback_url is longer than ${MAX_URL_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw refuse('callback_url is not an absolute URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`callback_url must use http or https, not ${url.protocol.slice(0, -1)}`)
  // Credentials would be sent to the receiver on every event and shown wherever the URL is listed.
  if (url.username || url.password) throw refuse('callback_url must not contain a user name or password')
  if (!url.hostname) throw refuse('callback_url has no host')
  return url
}

/**
 * The addresses a delivery to `url` may use. Every address the name resolves to must pass, else
 * a rebinding name could answer with a public address now and a private one for the connection.
 * A policy refusal throws AppError; a failing lookup rejects with the resolver's own error, which
 * the deliverer treats as a network error worth a retry.
 */
export async function allowedAddresses(
  ctx: AppContext,
  url: URL,
  lookup: Lookup = systemLookup,
): Promise<IpAddress[]> {
  const literal = parseIpLiteral(url.hostname)
  const addresses = literal
    ? [literal]
    : (await lookup(url.hostname)).map((a) => {
        const parsed = parseIpLiteral(a)
        if (!parsed) throw new Error(`resolver returned a non-address ${JSON.stringify(a)}`)
        return parsed
      })
  if (addresses.length === 0) throw new Error(`${url.hostname} has no addresses`)
  for (const addr of addresses) {
    const reason = refusalReason(addr, ctx.config.callbackAllow)
    if (reason) {
      const via = literal ? '' : ` (${url.hostname} resolves to ${addr.toString()})`
      throw refuse(
        `callback_url must be publicly reachable: ${addr.toString()} is a ${reason}${via}. ` +
          'Private receivers can be allowed with --callback-allow <cidr>.',
      )
    }
  }
  return addresses
}

/** For the API: accepts a `callback_url` or throws `400 INVALID_CALLBACK_URL` saying why. */
export async function validateCallbackUrl(
  ctx: AppContext,
  raw: string,
  opts: { lookup?: Lookup } = {},
): Promise<URL> {
  const url = parseCallbackUrl(raw)
  try {
    await allowedAddresses(ctx, url, opts.lookup)
  } catch (err) {
    if (err instanceof AppError) throw err
    throw refuse(`callback_url host ${url.hostname} could not be resolved`)
  }
  return url
}
