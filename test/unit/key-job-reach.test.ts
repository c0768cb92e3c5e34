import { describe, expect, test } from 'bun:test'
import { jobsReachedBy, keyReachesJob } from '../../src/modules/keys/job-reach.ts'
import type { KeyGrant } from '../../src/modules/keys/model.ts'
import { parseJobPattern } from '../../src/modules/keys/model.ts'

const grant = (...patterns: string[]): KeyGrant => ({
  id: 'k',
  name: 'k',
  scopes: null,
  jobs: patterns.map(parseJobPattern),
})

/** key pattern × job route → whether the key sees the job (it may call it with some path). */
const CASES: [pattern: string, job: string, reaches: boolean][] = [
  ['/customers/*', 'POST /customers/:id', true],
  ['/customers/*', 'GET /customers/:id/notes', true],
  ['/customers/*', 'POST /customers', false],
  ['/customers/*', 'POST /customers-old/:id', false],
  ['/customers/:id', 'POST /customers/:cid', true],
  ['/customers/:id', 'POST /customers/:id/notes', false],
  ['/customers/42', 'POST /customers/:id', true],
  ['/customers/42', 'POST /customers/43', false],
  ['/customers/*/notes', 'POST /customers/vip/notes', true],
  ['/customers/*/notes', 'POST /customers/:id/lines', false],
  ['POST /customers/:id', 'POST /customers/:id', true],
  ['POST /customers/:id', 'GET /customers/:id', false],
  ['post /customers/:id', 'POST /customers/:id', true],
  ['/a', 'GET /a', true],
  ['/a', 'GET /a/:b', false],
  ['/*', 'GET /a/b', true],
]

describe('keyReachesJob', () => {
  for (const [pattern, job, reaches] of CASES) {
    test(`${pattern} ${reaches ? 'reaches' : 'does not reach'} ${job}`, () => {
      const [method, path] = job.split(' ') as [string, string]
      expect(keyReachesJob(grant(pattern), { method, path })).toBe(reaches)
    })
  }

  test('no key, or a key without job patterns, reaches every job', () => {
    const job = { method: 'POST', path: '/orders/:id' }
    expect(keyReachesJob(undefined, job)).toBe(true)
    expect(keyReachesJob({ id: 'k', name: 'k', scopes: ['read'], jobs: null }, job)).toBe(true)
  })

  test('jobsReachedBy keeps the jobs any one pattern reaches, in their order', () => {
    const jobs = ['GET /a/:x', 'POST /b/:y', 'PUT /c', 'DELETE /a/1'].map((j) => {
      const [method, path] = j.split(' ') as [string, string]
      return { method, path, label: j }
    })
    expect(jobsReachedBy(grant('/a/*', 'PUT /c'), jobs).map((j) => j.label)).toEqual([
      'GET /a/:x',
      'PUT /c',
      'DELETE /a/1',
    ])
    expect(jobsReachedBy(undefined, jobs)).toBe(jobs)
  })
})
