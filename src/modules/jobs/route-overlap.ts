/**
 * Whether two job patterns of one method would compete for the same paths with no clear winner.
 * The router tries static segments before parameters, segment by segment, so where one pattern is
 * the other with some parameters made literal (`/issues/search` and `/issues/:number`) the
 * literal one takes its paths and the other keeps the rest: clear. Where each is literal where the
 * other has a parameter (`/a/:x` and `/:y/b`: which one is `/a/b`?), the winner would depend on
 * which segment comes first, which nobody teaching a job can see: that pair is refused.
 */
export function overlapsAmbiguously(a: string, b: string): boolean {
  const sa = segments(a)
  const sb = segments(b)
  if (sa.length !== sb.length) return false
  let aLiteralWhereBParam = false
  let bLiteralWhereAParam = false
  for (let i = 0; i < sa.length; i++) {
    const pa = isParam(sa[i]!)
    const pb = isParam(sb[i]!)
    if (!pa && !pb && sa[i] !== sb[i]) return false // no path matches both
    if (!pa && pb) aLiteralWhereBParam = true
    if (pa && !pb) bLiteralWhereAParam = true
  }
  return aLiteralWhereBParam && bLiteralWhereAParam
}

const segments = (p: string) => (p === '/' ? [] : p.slice(1).split('/'))
const isParam = (segment: string) => segment.startsWith(':')
