import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { demoteJob } from '../../src/modules/jobs/service.ts'
import { metricsOpenTo } from '../../src/modules/metrics/access.ts'
import { Counter, Histogram, Registry } from '../../src/modules/metrics/registry.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|\})/

/** A strict reader of the text format 0.0.4: throws on any line a Prometheus server would refuse. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  expect(text.endsWith('\n')).toBe(true)
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) {
      const [name] = line.slice(7).split(' ')
      if (!NAME.test(name!)) throw new Error(`bad HELP: ${line}`)
      continue
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type, ...rest] = line.slice(7).split(' ')
      if (!NAME.test(name!) || rest.length || !['counter', 'gauge', 'histogram'].includes(type!))
        throw new Error(`bad TYPE: ${line}`)
      types.set(name!, type!)
      continue
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? ([^ ]+)$/.exec(line)
    if (!m) throw new Error(`bad sample line: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    let rest = m[2] ? m[2].slice(1) : ''
    while (rest) {
      const l = LABEL.exec(rest)
      if (!l) throw new Error(`bad labels in: ${line}`)
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
      rest = rest.slice(l[0].length)
      if (l[3] === '}') break
    }
    if (rest) throw new Error(`trailing text in: ${line}`)
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3])
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`bad value in: ${line}`)
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '')
    if (!types.has(m[1]!) && types.get(family) !== 'histogram')
      throw new Error(`sample before its TYPE: ${line}`)
    samples.push({ name: m[1]!, labels, value })
  }
  return { samples, types }
}

const pick = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  pick(samples, name, labels).reduce((n, s) => n + s.value, 0)

let s: TestServer
let desk: FakeRunner & { secret: string }
let receiver: Receiver

beforeAll(async () => {
  receiver = startReceiver((req) => new Response(null, { status: req.path.includes('fail') ? 500 : 200 }))
  s = await startTestServer(
    { metricsAllow: '10.0.0.0/8', callbackAllow: '127.0.0.1/32' },
    { webhooks: { retryDelayMs: 20, jitter: 0, pollIntervalMs: 50 } },
  )
  await liveJob(s, 'POST', '/echo')
  await liveJob(s, 'GET', '/customers/:id')
  await liveJob(s, 'POST', '/learning')
  demoteJob(s.ctx, 'POST', '/learning')
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
})
afterAll(async () => {
  desk?.close()
  await s.close()
  await receiver.stop()
})

/** The newest scrape's text, kept as a test artefact (test-artifacts/metrics.txt) for people to read. */
let lastScrape = ''

const scrape = async () => {
  const res = await s.call('/_metrics')
  expect(res.status).toBe(200)
  lastScrape = await res.text()
  return parseExposition(lastScrape)
}

describe('GET /_metrics access', () => {
  test('without a key, from outside --metrics-allow: 401 with the usual error body', async () => {
    const res = await s.call('/_metrics', { key: null })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('ApiKey')
    expect((await res.json()).error.code).toBe('UNAUTHORIZED')
    expect((await s.call('/_metrics', { key: 'dh_not_a_real_key' })).status).toBe(401)
  })

  test('with a key: 200 in the Prometheus text format 0.0.4', async () => {
    const res = await s.call('/_metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
    const { types } = parseExposition(await res.text())
    expect(types.get('deskhook_job_calls_total')).toBe('counter')
    expect(types.get('deskhook_run_duration_seconds')).toBe('histogram')
    expect(types.get('deskhook_queue_depth')).toBe('gauge')
  })

  test('inside --metrics-allow no key is needed; the allow-list opens nothing else', async () => {
    const open = await startTestServer({ metricsAllow: '10.0.0.0/8,127.0.0.1/32' })
    try {
      const res = await open.call('/_metrics', { key: null })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
      expect((await open.call('/_jobs', { key: null })).status).toBe(401)
    } finally {
      await open.close()
    }
  })
})

describe('what the metrics count', () => {
  test('live calls, runs, queue, desktops, builds, webhooks and group commits show with their labels', async () => {
    for (let i = 0; i < 2; i++)
      expect((await s.call('/echo', { method: 'POST', json: { i } })).status).toBe(200)
    expect((await s.call('/customers/42')).status).toBe(200)
    expect((await s.call('/customers/43')).status).toBe(200)
    // Counted under the job's pattern, with the status answered (409: the job is back to learning).
    expect((await s.call('/learning', { method: 'POST', json: {} })).status).toBe(409)
    // Not a job: not counted.
    expect((await s.call('/nothing-here')).status).toBe(404)
    const ok = await s.call(`/echo?async=1&callback_url=${encodeURIComponent(`${receiver.url}/ok`)}`, {
      method: 'POST',
    })
    expect(ok.status).toBe(202)
    const bad = await s.call(`/echo?async=1&callback_url=${encodeURIComponent(`${receiver.url}/fail`)}`, {
      method: 'POST',
    })
    expect(bad.status).toBe(202)

    const { samples } = await eventually(async () => {
      const scraped = await scrape()
      const failed = total(scraped.samples, 'deskhook_webhook_deliveries_total', { result: 'failed' })
      const runs = total(scraped.samples, 'deskhook_run_duration_seconds_count', { path: '/echo' })
      return failed >= 1 && runs >= 4 && scraped
    })

    const calls = (labels: Record<string, string>) => total(samples, 'deskhook_job_calls_total', labels)
    expect(calls({ method: 'POST', path: '/echo', status: '200' })).toBe(2)
    // Teaching calls are calls to the job too (liveJob made one per job).
    expect(calls({ method: 'POST', path: '/echo', status: '202' })).toBe(3)
    expect(calls({ method: 'GET', path: '/customers/:id', status: '202' })).toBe(1)
    expect(calls({ method: 'GET', path: '/customers/:id', status: '200' })).toBe(2)
    expect(calls({ method: 'POST', path: '/learning', status: '409' })).toBe(1)
    expect(calls({ method: 'POST', path: '/learning', status: '202' })).toBe(1)
    expect(pick(samples, 'deskhook_job_calls_total', { path: '/nothing-here' })).toEqual([])
    expect(pick(samples, 'deskhook_job_calls_total', { path: '/_metrics' })).toEqual([])

    expect(
      total(samples, 'deskhook_run_duration_seconds_count', {
        method: 'POST',
        path: '/echo',
        status: 'succeeded',
      }),
    ).toBe(4)
    expect(
      total(samples, 'deskhook_run_duration_seconds_count', {
        method: 'GET',
        path: '/customers/:id',
        status: 'succeeded',
      }),
    ).toBe(2)
    expect(total(samples, 'deskhook_queue_wait_seconds_count')).toBe(6)
    expect(total(samples, 'deskhook_queue_depth')).toBe(0)
    expect(total(samples, 'deskhook_desktops_online')).toBe(1)
    expect(total(samples, 'deskhook_desktops_busy')).toBe(0)
    expect(
      total(samples, 'deskhook_webhook_deliveries_total', { result: 'delivered' }),
    ).toBeGreaterThanOrEqual(2)
    expect(total(samples, 'deskhook_webhook_deliveries_total', { result: 'failed' })).toBeGreaterThanOrEqual(
      1,
    )
    // The failing receiver: its first attempt is retried, the retry fails for good.
    expect(total(samples, 'deskhook_webhook_attempt_failures_total')).toBeGreaterThanOrEqual(2)
    // Three teach calls made three builds, each in one of the statuses (all statuses are listed).
    expect(
      pick(samples, 'deskhook_builds')
        .map((x) => x.labels.status)
        .sort(),
    ).toEqual(['exploring', 'failed', 'queued', 'succeeded', 'verifying', 'waiting_for_answer'].sort())
    expect(total(samples, 'deskhook_builds')).toBe(3)
    expect(total(samples, 'deskhook_db_commit_batch_size_count')).toBeGreaterThan(0)
    expect(total(samples, 'deskhook_db_commit_batch_size_sum')).toBeGreaterThanOrEqual(
      total(samples, 'deskhook_db_commit_batch_size_count'),
    )
    expect(total(samples, 'deskhook_db_commit_duration_seconds_count')).toBe(
      total(samples, 'deskhook_db_commit_batch_size_count'),
    )
    expect(pick(samples, 'deskhook_event_loop_lag_seconds')).toHaveLength(1)
    expect(total(samples, 'deskhook_process_resident_memory_bytes')).toBeGreaterThan(0)
    const artefacts = join(import.meta.dir, '../../test-artifacts')
    mkdirSync(artefacts, { recursive: true })
    writeFileSync(join(artefacts, 'metrics.txt'), lastScrape)
  })

  test('histogram buckets are cumulative and end in +Inf equal to _count', async () => {
    const { samples } = await scrape()
    const series = pick(samples, 'deskhook_run_duration_seconds_count')
    expect(series.length).toBeGreaterThan(0)
    for (const count of [...series, ...pick(samples, 'deskhook_db_commit_batch_size_count')]) {
      const family = count.name.replace(/_count$/, '')
      const buckets = pick(samples, `${family}_bucket`, count.labels).filter(
        (b) => Object.keys(b.labels).length === Object.keys(count.labels).length + 1,
      )
      expect(buckets.at(-1)!.labels.le).toBe('+Inf')
      expect(buckets.at(-1)!.value).toBe(count.value)
      for (let i = 1; i < buckets.length; i++)
        expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value)
    }
  })
})

describe('the text format', () => {
  test('label values are escaped (backslash, quote, newline) and read back unchanged', () => {
    const registry = new Registry()
    const weird = 'C:\\temp "quoted"\nnext line'
    registry.add(new Counter('t_total', 'help with \\ and\nnewline', ['path'])).inc([weird], 3)
    registry.add(new Histogram('t_seconds', 'h', ['path'], [0.1, 1])).observe([weird], 0.5)
    const text = registry.render()
    expect(text).toContain('t_total{path="C:\\\\temp \\"quoted\\"\\nnext line"} 3')
    expect(text).toContain('# HELP t_total help with \\\\ and\\nnewline')
    const { samples } = parseExposition(text)
    expect(pick(samples, 't_total')[0]!.labels.path).toBe(weird)
    expect(pick(samples, 't_seconds_bucket', { le: '0.1' })[0]!.value).toBe(0)
    expect(pick(samples, 't_seconds_bucket', { le: '1' })[0]!.value).toBe(1)
    expect(pick(samples, 't_seconds_bucket', { le: '+Inf' })[0]!.labels.path).toBe(weird)
  })

  test('--metrics-allow matches the peer address, IPv4-mapped IPv6 included', () => {
    const config = loadConfig({ metricsAllow: '10.0.0.0/8,fd00::/8' }, {})
    expect(metricsOpenTo(config, '10.1.2.3')).toBe(true)
    expect(metricsOpenTo(config, '::ffff:10.1.2.3')).toBe(true)
    expect(metricsOpenTo(config, 'fd00::5')).toBe(true)
    expect(metricsOpenTo(config, '11.0.0.1')).toBe(false)
    expect(metricsOpenTo(config, '127.0.0.1')).toBe(false)
    expect(metricsOpenTo(config, 'not an address')).toBe(false)
    expect(metricsOpenTo(config, undefined)).toBe(false)
    expect(metricsOpenTo(loadConfig({}, {}), '10.1.2.3')).toBe(false)
    expect(() => loadConfig({ metricsAllow: '10.0.0.0/33' }, {})).toThrow('--metrics-allow')
  })
})
