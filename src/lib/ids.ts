/**
 * Time-ordered UUIDv7 keys: still "UUID format" for the spec, and they keep SQLite's B-tree
 * appends local (PERF-NOTES: +49% throughput, half the p99 of random v4 keys).
 */
export function newId(): string {
  return Bun.randomUUIDv7()
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/** Reuse a caller's `x-request-id` when it is sane, so logs line up across systems. */
export function requestIdFrom(header: string | null): string {
  return header && REQUEST_ID.test(header) ? header : Bun.randomUUIDv7()
}
