import type { AppContext } from '../../context.ts'

/**
 * Per-key token buckets, in memory (one server per data dir, so one set of buckets). Each key has
 * its own bucket, so one key's flood never spends another's tokens (P11). Buckets start full.
 */
interface Bucket {
  tokens: number
  at: number
}

const buckets = new WeakMap<AppContext, Map<string, Bucket>>()

/** Returns 0 when the request may go ahead, else the seconds until a token is back. */
export function takeToken(ctx: AppContext, keyId: string, ratePerSecond: number, burst: number): number {
  let mine = buckets.get(ctx)
  if (!mine) {
    mine = new Map()
    buckets.set(ctx, mine)
  }
  const now = ctx.clock.now().getTime()
  let bucket = mine.get(keyId)
  if (!bucket) {
    bucket = { tokens: burst, at: now }
    mine.set(keyId, bucket)
  }
  // A clock that steps back (NTP) refills nothing rather than going negative.
  const elapsed = Math.max(0, now - bucket.at) / 1000
  bucket.tokens = Math.min(burst, bucket.tokens + elapsed * ratePerSecond)
  bucket.at = now
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1
    return 0
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond))
}
