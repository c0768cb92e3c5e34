import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm'
import type { AppContext } from '../../../context.ts'
import { type DeliveryStatus, webhookDeliveries as w } from '../../../db/schema/index.ts'
import { AppError } from '../../../lib/errors.ts'

export const DELIVERIES_PER_PAGE = 50

/** The list's filter and page, as the query string carries them. */
export interface DeliveryQuery {
  failed: boolean
  /** Rows older (lower id) than this one: the "Older" page. */
  before?: number
  /** Rows newer than this one: the "Newer" page. */
  after?: number
}

export interface DeliveryRow {
  id: number
  eventType: string
  /** Only the receiver's host: callback URLs often carry a token in their path or query. */
  host: string
  executionId: number
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

export interface DeliveryPage {
  rows: DeliveryRow[]
  /** Ids for the pager links, when there is a page that way. */
  newer?: number
  older?: number
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : '(invalid URL)')

function positiveId(name: string, raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1)
    throw new AppError('INVALID_REQUEST', `“${name}” must be a delivery number`, { field: name })
  return Number(raw)
}

export function parseDeliveryQuery(params: URLSearchParams): DeliveryQuery {
  const failed = params.get('failed')
  if (failed !== null && failed !== '' && failed !== '1' && failed !== 'on')
    throw new AppError('INVALID_REQUEST', '“failed” is 1 (failed deliveries only) or absent')
  return {
    failed: failed === '1' || failed === 'on',
    before: positiveId('before', params.get('before')),
    after: positiveId('after', params.get('after')),
  }
}

export function deliveriesHref(q: DeliveryQuery, page: { before?: number; after?: number } = {}): string {
  const params = new URLSearchParams()
  if (q.failed) params.set('failed', '1')
  if (page.before !== undefined) params.set('before', String(page.before))
  if (page.after !== undefined) params.set('after', String(page.after))
  const s = params.toString()
  return s ? `/_/settings/deliveries?${s}` : '/_/settings/deliveries'
}

/** Newest first, one page; keyset paging on the id (stable while new events arrive). */
export function listDeliveryPage(ctx: AppContext, q: DeliveryQuery): DeliveryPage {
  const filter: SQL | undefined = q.failed ? eq(w.status, 'failed') : undefined
  const page = (where: SQL | undefined, newestFirst: boolean) =>
    ctx.db
      .select()
      .from(w)
      .where(and(filter, where))
      .orderBy(newestFirst ? desc(w.id) : asc(w.id))
      .limit(DELIVERIES_PER_PAGE)
      .all()
  const raw =
    q.after !== undefined
      ? page(gt(w.id, q.after), false).reverse()
      : page(q.before !== undefined ? lt(w.id, q.before) : undefined, true)
  const exists = (where: SQL) =>
    !!ctx.db.select({ id: w.id }).from(w).where(and(filter, where)).limit(1).get()
  const first = raw[0]
  const last = raw.at(-1)
  return {
    rows: raw.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      host: hostOf(r.url),
      executionId: r.executionId,
      status: r.status,
      attempts: r.attempts,
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      createdAt: r.createdAt,
      deliveredAt: r.deliveredAt,
    })),
    newer: first && exists(gt(w.id, first.id)) ? first.id : undefined,
    older: last && exists(lt(w.id, last.id)) ? last.id : undefined,
  }
}
