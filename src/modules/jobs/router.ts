import FindMyWay from 'find-my-way'

export const JOB_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type JobMethod = (typeof JOB_METHODS)[number]

export interface RouteMatch {
  jobId: string
  pattern: string
  params: Record<string, string>
}

interface RouteStore {
  jobId: string
  pattern: string
}

/**
 * Method + path → job, on a radix tree (find-my-way, Fastify's router): lookup cost grows with the
 * path's length, not with the number of jobs. Static segments win over parameters.
 */
export class JobRouter {
  #tree = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true })
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Throws when the route's shape is already taken (e.g. `/a/:id` vs `/a/:name` on one method). */
  add(method: string, pattern: string, jobId: string): void {
    this.#tree.on(method as JobMethod, pattern, () => {}, { jobId, pattern } satisfies RouteStore)
    this.#size++
  }

  remove(method: string, pattern: string): void {
    this.#tree.off(method as JobMethod, pattern)
    this.#size--
  }

  find(method: string, path: string): RouteMatch | null {
    if (!(JOB_METHODS as readonly string[]).includes(method)) return null
    const hit = this.#tree.find(method as JobMethod, path)
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
    return JOB_METHODS.filter((m) => this.#tree.find(m, path) !== null)
  }
}
