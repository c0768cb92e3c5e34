import FindMyWay from 'find-my-way'
import { MAX_PATH_LENGTH, normalisePath, routerPath } from './path-pattern.ts'

export const JOB_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type JobMethod = (typeof JOB_METHODS)[number]

export interface RouteMatch {
  jobId: string
  pattern: string
  params: Record<string, string>
}

/** Longest request path a parameter can come from (Bun refuses longer request lines anyway). */
const MAX_URL_LENGTH = Math.max(MAX_PATH_LENGTH, 16 * 1024)

interface RouteStore {
  jobId: string
  pattern: string
}

/**
 * Method + path → job, on a radix tree (find-my-way, Fastify's router): lookup cost grows with the
 * path's length, not with the number of jobs. Static segments win over parameters.
 */
export class JobRouter {
  // A parameter may be as long as a path may be (find-my-way's default of 100 made longer ids
  // a 404). The tree holds static segments decoded, as it decodes the paths it is asked for.
  #tree = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: MAX_URL_LENGTH })
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Throws when the route's shape is already taken (e.g. `/a/:id` vs `/a/:name` on one method). */
  add(method: string, pattern: string, jobId: string): void {
    this.#tree.on(method as JobMethod, routerPath(pattern), () => {}, { jobId, pattern } satisfies RouteStore)
    this.#size++
  }

  remove(method: string, pattern: string): void {
    this.#tree.off(method as JobMethod, routerPath(pattern))
    this.#size--
  }

  find(method: string, path: string): RouteMatch | null {
    if (!(JOB_METHODS as readonly string[]).includes(method)) return null
    // The tree decodes what it is asked for; asked in the one canonical form, every spelling of a
    // path (`/cafe\u0301`, `/caf%c3%a9`) finds the job taught at it.
    const hit = this.#tree.find(method as JobMethod, normalisePath(path))
    if (!hit) return null
    const store = hit.store as RouteStore
    return {
      jobId: store.jobId,
      pattern: store.pattern,
      params: { ...(hit.params as Record<string, string>) },
    }
  }

  /** Which methods have a job at this path: the 404 message names them. */
  methodsAt(path: string): JobMethod[] {
    const canonical = normalisePath(path)
    return JOB_METHODS.filter((m) => this.#tree.find(m, canonical) !== null)
  }
}
