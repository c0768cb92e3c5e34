import type { VNode } from 'preact'
import { renderToString } from 'preact-render-to-string'

/**
 * Headers every dashboard response carries. The CSP allows only this origin's own files: no
 * inline script, no inline style, nothing from elsewhere, no framing.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export function securityHeaders(csp = CSP): Record<string, string> {
  return {
    'content-security-policy': csp,
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  }
}

/** A server-rendered page: never cached (it shows live state and a CSRF token). */
export function htmlResponse(
  node: VNode,
  init: { status?: number; headers?: Record<string, string>; csp?: string } = {},
): Response {
  return new Response(`<!doctype html>${renderToString(node)}`, {
    status: init.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...securityHeaders(init.csp),
      ...init.headers,
    },
  })
}

const utf8 = new TextEncoder()

/**
 * A header value carries printable ASCII only: anything else is sent as its UTF-8 bytes
 * percent-encoded, so a Location never holds a raw byte (Latin-1) or fails to be sent (a 500).
 */
const asciiLocation = (location: string) =>
  location.replace(/[^\x21-\x7e]/gu, (c) =>
    [...utf8.encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  )

/** After a form post: 303 so the browser GETs the next page (no "resubmit form?"). */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status: 303,
    headers: {
      location: asciiLocation(location),
      'cache-control': 'no-store',
      ...securityHeaders(),
      ...headers,
    },
  })
}

/**
 * Only same-site relative paths under /_/ are followed after sign-in (no open redirect), written
 * in printable ASCII as the dashboard's own links are (a `next` it made is percent-encoded);
 * anything else goes to the jobs page.
 */
export function safeNext(next: unknown): string {
  return typeof next === 'string' &&
    /^\/_\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/.test(next) &&
    !next.startsWith('/_/sign-')
    ? next
    : '/_/'
}

/** JSON for the islands' fetches (same headers as pages). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...securityHeaders(),
    },
  })
}
