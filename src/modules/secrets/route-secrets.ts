import { and, asc, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobSecrets, routeSecrets } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { parsePattern } from '../jobs/path-pattern.ts'
import { JOB_METHODS } from '../jobs/router.ts'
import { openSecret, sealSecret } from './cipher.ts'

/**
 * Secrets set before the job exists (`jobs secret set POST /tickets password`, then the first
 * teaching call): kept under the method and path the job will have, and moved to the job by the
 * teaching call that creates it. No placeholder job is made, so nothing answers on the route and
 * no listing shows a job that was never taught.
 */

const routeContext = (method: string, path: string, name: string) =>
  `deskhook.route-secret:${method} ${path}:${name}`

/** The route as the job will be stored: method upper-case, path in its one form. */
export function secretRoute(method: string, path: string): { method: string; path: string } {
  const m = method.toUpperCase()
  if (!(JOB_METHODS as readonly string[]).includes(m))
    throw new AppError('INVALID_REQUEST', `Jobs are registered on ${JOB_METHODS.join(', ')}, not ${method}`, {
      field: 'method',
    })
  return { method: m, path: parsePattern(path).pattern }
}

type Tx = Pick<AppContext['db'], 'select' | 'insert' | 'delete'>

export function setRouteSecret(
  db: Tx,
  key: Buffer,
  route: { method: string; path: string },
  name: string,
  value: string,
  now: string,
): boolean {
  const where = and(
    eq(routeSecrets.method, route.method),
    eq(routeSecrets.path, route.path),
    eq(routeSecrets.name, name),
  )
  const existing = db.select({ name: routeSecrets.name }).from(routeSecrets).where(where).get()
  const ciphertext = sealSecret(key, value, routeContext(route.method, route.path, name))
  db.insert(routeSecrets)
    .values({ ...route, name, ciphertext, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [routeSecrets.method, routeSecrets.path, routeSecrets.name],
      set: { ciphertext, updatedAt: now },
    })
    .run()
  return Boolean(existing)
}

export function listRouteSecrets(
  db: Pick<AppContext['db'], 'select'>,
  route: { method: string; path: string },
) {
  return db
    .select({ name: routeSecrets.name, createdAt: routeSecrets.createdAt, updatedAt: routeSecrets.updatedAt })
    .from(routeSecrets)
    .where(and(eq(routeSecrets.method, route.method), eq(routeSecrets.path, route.path)))
    .orderBy(asc(routeSecrets.name))
    .all()
}

export function removeRouteSecret(db: Tx, route: { method: string; path: string }, name: string): boolean {
  return Boolean(
    db
      .delete(routeSecrets)
      .where(
        and(
          eq(routeSecrets.method, route.method),
          eq(routeSecrets.path, route.path),
          eq(routeSecrets.name, name),
        ),
      )
      .returning({ name: routeSecrets.name })
      .get(),
  )
}

/**
 * Inside the teaching call that creates the job: the secrets set for its route become the job's
 * (sealed again, bound to the job). Returns their names.
 */
export function claimRouteSecrets(
  tx: Tx,
  key: Buffer | null,
  route: { method: string; path: string },
  jobId: string,
  jobContext: (jobId: string, name: string) => string,
  now: string,
): string[] {
  const rows = tx
    .select()
    .from(routeSecrets)
    .where(and(eq(routeSecrets.method, route.method), eq(routeSecrets.path, route.path)))
    .all()
  if (rows.length === 0 || !key) return []
  const claimed: string[] = []
  for (const r of rows) {
    let value: string
    try {
      value = openSecret(key, r.ciphertext, routeContext(r.method, r.path, r.name))
    } catch {
      continue // sealed under a key since replaced: unusable, dropped like the others
    }
    claimed.push(r.name)
    tx.insert(jobSecrets)
      .values({
        jobId,
        name: r.name,
        ciphertext: sealSecret(key, value, jobContext(jobId, r.name)),
        createdAt: r.createdAt,
        updatedAt: now,
      })
      .run()
  }
  tx.delete(routeSecrets)
    .where(and(eq(routeSecrets.method, route.method), eq(routeSecrets.path, route.path)))
    .run()
  return claimed
}
