import type { KeyAccess } from '../modules/keys/model.ts'
import { METRICS_PATH } from '../modules/metrics/access.ts'

/**
 * What a keyed request needs from its key, decided from method and path alone (before any body
 * is read). Reserved paths: reading executions, builds, jobs and desktops is `read`; answering,
 * recording and removing is `teach`. Any other path is a job trigger: the key needs `call` or
 * `teach` and a job pattern that matches; the trigger handler narrows it to one of the two once it
 * has read the body (the teach envelope).
 */
export function accessFor(method: string, path: string): KeyAccess {
  const m = method.toUpperCase()
  const reads = m === 'GET' || m === 'HEAD'
  if (path.startsWith('/_'))
    return {
      method: m,
      path,
      // A key reads the executions it created without `read` (the async poll uses the call's key):
      // the executions module lets a `call`-only key see only its own (keys/own-executions.ts).
      scopes: reads ? (path.startsWith('/_executions/') ? ['read', 'call'] : ['read']) : ['teach'],
      // Metrics count every job's calls under its path: no job pattern matches a reserved path,
      // so a key limited to some jobs gets 403 there and only a key for all jobs reads them.
      job: path === METRICS_PATH,
    }
  // The method is matched by the trigger handler, on what the call will run or teach.
  return { method: m, path, scopes: ['call', 'teach'], job: true, anyMethod: true }
}
