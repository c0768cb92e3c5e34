import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { VERSION } from '../../version.ts'
import { allowedAddresses, type Lookup, parseCallbackUrl } from './callback-url.ts'
import type { OutboxRow } from './outbox.ts'
import { signatureHeaders, signingSecrets } from './signing.ts'

/** What one POST of one event came to; the deliverer turns it into the row's next state. */
export type AttemptOutcome =
  | { kind: 'delivered'; statusCode: number }
  | { kind: 'retryable'; statusCode: number | null; error: string; retryAfterMs?: number }
  | { kind: 'failed'; statusCode: number | null; error: string }
  /** Cut short by shutdown: not the receiver's fault, so the attempt does not count. */
  | { kind: 'aborted' }

export interface AttemptOptions {
  /** Total deadline for the attempt: DNS, connect, TLS, request and response headers. */
  timeoutMs: number
  lookup: Lookup
  /** Aborted when the deliverer stops. */
  stopSignal: AbortSignal
}

/**
 * Resolves, re-checks and POSTs one event. The connection goes to the very address that passed the
 * SSRF check (the URL's host swapped for it; `Host` and TLS SNI/verification keep the name), so a
 * DNS answer that changes between check and connect cannot steer the request elsewhere.
 */
export async function sendAttempt(
  ctx: AppContext,
  row: OutboxRow,
  opts: AttemptOptions,
): Promise<AttemptOutcome> {
  const signal = AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.stopSignal])
  try {
    const url = parseCallbackUrl(row.url)
    const [address] = await abortable(allowedAddresses(ctx, url, opts.lookup), signal)
    const target = new URL(url)
    target.hostname = address!.kind() === 'ipv6' ? `[${address!.toString()}]` : address!.toString()
    const body = JSON.stringify(row.payload)
    const res = await fetch(target, {
      method: 'POST',
      redirect: 'manual',
      signal,
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'user-agent': `deskhook/${VERSION}`,
        ...signatureHeaders(signingSecrets(ctx), row.eventId, ctx.clock.now(), body),
      },
      body,
      ...(url.protocol === 'https:' && !isIpHost(url.hostname) ? { tls: { serverName: url.hostname } } : {}),
    })
    // The body is never needed; dropping it frees the connection without reading a big answer.
    await res.body?.cancel().catch(() => {})
    return classify(res)
  } catch (err) {
    if (opts.stopSignal.aborted) return { kind: 'aborted' }
    if (err instanceof AppError) return { kind: 'failed', statusCode: null, error: err.message }
    if (signal.aborted)
      return { kind: 'retryable', statusCode: null, error: `timed out after ${opts.timeoutMs} ms` }
    return { kind: 'retryable', statusCode: null, error: `network error: ${(err as Error).message}` }
  }
}

const isIpHost = (hostname: string) => hostname.startsWith('[') || /^[\d.]+$/.test(hostname)

/** Standard Webhooks status handling: 2xx done; 408, 429 and 5xx worth a retry; the rest final. */
function classify(res: Response): AttemptOutcome {
  const code = res.status
  if (code >= 200 && code < 300) return { kind: 'delivered', statusCode: code }
  if (code >= 300 && code < 400) {
    const location = res.headers.get('location')
    return {
      kind: 'failed',
      statusCode: code,
      error: `redirect (${code}${location ? ` to ${location}` : ''}) not followed`,
    }
  }
  if (code === 408 || code === 429 || code >= 500) {
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'))
    return { kind: 'retryable', statusCode: code, error: `receiver answered ${code}`, retryAfterMs }
  }
  return {
    kind: 'failed',
    statusCode: code,
    error: `receiver answered ${code}${code === 410 ? ' (gone)' : ''}`,
  }
}

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** A promise that also settles when `signal` aborts (DNS lookups take no signal of their own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
