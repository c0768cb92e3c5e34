/**
 * "Full jitter" exponential backoff (AWS architecture blog): a random delay in [0, min(cap, base·2ⁿ)],
 * so a fleet of agents reconnecting after a server restart does not arrive in one wave.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30)))
}
