// A generated id the app shows only in the new record's own address (`/item/17/change/`,
// `post.php?post=123&action=edit`): the address changed with the submit, and the new segment or
// parameter sits after words that mean the key ("item" for itemId), so the address is evidence.
// The job reads it from the page's address (`read` with `source: url` and an extract).

import { shapeOf } from '../explore/url-route.ts'
import { escapeRegex } from '../generalise.ts'
import { compact, stems } from '../words.ts'
import { keyMeaning } from './output-evidence.ts'
import type { OutputContext, ReadStepAny } from './outputs.ts'

const TOKEN = '([A-Za-z0-9][A-Za-z0-9_-]*)'

export function urlRead(
  ctx: OutputContext,
  key: string,
): { step: ReadStepAny; token: string; text: string } | undefined {
  const { subject, identifier } = keyMeaning(key)
  if (!identifier || !ctx.afterUrl) return undefined
  const after = parse(ctx.afterUrl)
  if (!after) return undefined
  const before = ctx.beforeUrl ? parse(ctx.beforeUrl) : undefined
  const isInput = (v: string) => ctx.inputs.some((i) => compact(i) === compact(v))
  const idLike = (v: string) => {
    const shape = shapeOf(v)
    return (shape === 'digits' || shape === 'hex' || shape === 'code') && !isInput(v)
  }
  const means = (words: string) => {
    const w = stems(words)
    return subject.length ? subject.every((s) => w.some((x) => x === s || x.startsWith(s))) : true
  }
  const found: { token: string; extract: string }[] = []
  const segments = after.pathname.split('/')
  const old = new Set(before?.pathname.split('/') ?? [])
  segments.forEach((segment, i) => {
    if (!segment || old.has(segment) || !idLike(segment)) return
    if (!means(segments.slice(Math.max(0, i - 2), i).join(' '))) return
    const pattern = segments.map((s, j) => (j === i ? TOKEN : idLike(s) ? '[^/]+' : escapeRegex(s))).join('/')
    found.push({ token: segment, extract: `${escapeRegex(after.origin)}${pattern}` })
  })
  for (const [name, value] of after.searchParams) {
    if (before?.searchParams.get(name) === value || !idLike(value) || !means(name)) continue
    found.push({ token: value, extract: `[?&]${escapeRegex(name)}=${TOKEN}` })
  }
  // Two new ids in one address that both fit are a question, not a pick.
  if (found.length !== 1) return undefined
  const { token, extract } = found[0]!
  return {
    step: { kind: 'read', name: `Read “${key}” from the address`, source: 'url', into: key, extract },
    token,
    text: ctx.afterUrl,
  }
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}
