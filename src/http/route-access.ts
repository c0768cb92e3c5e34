import type { KeyAccess } from '../modules/keys/model.ts'

/**
 * What a keyed request needs from its key, decided from method and path alone (before any body
 * is read). Reserved paths: reading executions, builds, jobs and desktops is `read`; answering,
 * recording and removing is `teach`. Any other path is a job trigger: the key needs `call` or
 * `teach` and a job pattern that matches; the trigger handler narrows it to one of the two once it
 * has read the body (the teach envelope).
 */
export function accessFor(method: string, path: string): KeyAccess {
  const m = method.toUpperCase()
  if (path.startsWith('/_'))
    return { method: m, path, scopes: m === 'GET' || m === 'HEAD' ? ['read'] : ['teach'], job: false }
  return { method: m, path, scopes: ['call', 'teach'], job: true }
}
