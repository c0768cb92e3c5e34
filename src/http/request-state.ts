import { requestIdFrom } from '../lib/ids.ts'
import type { KeyGrant } from '../modules/keys/model.ts'
import type { SignedIn } from '../modules/users/sessions.ts'

/**
 * Per-request facts set before routing (request id, caller's key) and read by handlers, the error
 * mapper and the access log. A WeakMap keyed by the Request frees them with the request.
 */
export interface RequestState {
  id: string
  startedAt: number
  /** The caller's key and what it may do (set by the key gate). */
  apiKey?: KeyGrant
  /** A dashboard request's person (session cookie); never set on the trigger host. */
  signedIn?: SignedIn
  /** Parsed once here; handlers and the access log reuse it. */
  url: URL
}

const states = new WeakMap<Request, RequestState>()

export function beginRequest(request: Request): RequestState {
  const state: RequestState = {
    id: requestIdFrom(request.headers.get('x-request-id')),
    startedAt: performance.now(),
    url: new URL(request.url),
  }
  states.set(request, state)
  return state
}

export function requestState(request: Request): RequestState {
  return states.get(request) ?? beginRequest(request)
}
