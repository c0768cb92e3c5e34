import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { importJob } from '../../src/modules/jobs/export-import.ts'
import { addJobVersion, getJobByRoute } from '../../src/modules/jobs/service.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'
import { crmJobFile, writeJobFile } from '../fixtures/job-files/crm.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer
const files = tempDir('deskhook-job-files-')
const dirs: { remove(): void }[] = [files]

beforeAll(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterAll(async () => {
  await s.close()
  for (const d of dirs) d.remove()
})

function freshDir(): string {
  const d = tempDir()
  dirs.push(d)
  return d.path
}

const writeFile = (name: string, content: unknown) => writeJobFile(files.path, name, content)
const jobFile = crmJobFile

const withoutStamp = (text: string) => {
  const { exportedAt, ...doc } = JSON.parse(text)
  expect(exportedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
  return doc
}

/** Calls the job live without waiting on a run: only the routing and the mode matter here. */
const callLive = (path: string) =>
  s.call(path, { method: 'POST', json: {}, headers: { 'x-job-async': 'true' } })

describe('deskhook jobs export / import', () => {
  test('a taught job exports, imports into a fresh installation and exports to the same document', async () => {
    let jobId = ''
    for (const email of ['ada@example.com', 'grace@example.com']) {
      const res = await s.call('/customers', {
        method: 'POST',
        json: teachBody(
          { prompt: 'Create a customer', expect: { customerId: { $type: 'string' } } },
          { email },
        ),
      })
      jobId = (await res.json()).jobId
    }
    addJobVersion(s.ctx, jobId, crmCreateCustomer('http://crm.lan'))

    const first = await cli(['jobs', 'export', 'post', '/customers', '--data', s.dataDir])
    expect(first.code).toBe(0)
    const doc = withoutStamp(first.stdout)
    expect(doc).toMatchObject({ format: 'deskhook.job', version: 1, method: 'POST', path: '/customers' })
    expect(doc.automation).toEqual(crmCreateCustomer('http://crm.lan'))
    expect(doc.samples.map((x: { input: { email: string } }) => x.input.email)).toEqual([
      'ada@example.com',
      'grace@example.com',
    ])
    expect(doc.samples[0].input._http).toMatchObject({ method: 'POST', path: '/customers' })

    const other = freshDir()
    const imported = await cli([
      'jobs',
      'import',
      await writeFile('customers.json', first.stdout),
      '--data',
      other,
    ])
    expect(imported.stdout).toBe(
      'Imported POST /customers as version 1 (new job, 2 samples); learning; ' +
        '`deskhook jobs promote POST /customers` makes it live\n',
    )
    const again = await cli(['jobs', 'export', 'POST', '/customers', '--data', other])
    expect(again.code).toBe(0)
    expect(withoutStamp(again.stdout)).toEqual(doc)
  })

  test('--live on a running server: the learning job serves the imported version at once', async () => {
    await s.call('/invoices', { method: 'POST', json: teachBody({ prompt: 'Create an invoice' }, { n: 1 }) })
    expect((await callLive('/invoices')).status).toBe(409)

    const file = await writeFile('invoices.json', jobFile('/invoices'))
    const r = await cli(['jobs', 'import', file, '--live', '--json', '--data', s.dataDir])
    expect(r.code).toBe(0)
    const result = JSON.parse(r.stdout)
    expect(result).toMatchObject({
      created: false,
      samplesAdded: 2,
      mode: 'live',
      liveVersion: result.version,
    })

    const res = await eventually(async () => {
      const res = await callLive('/invoices')
      return res.status !== 409 && res
    })
    expect((await res.json()).error?.code).not.toBe('JOB_NOT_LIVE')
    const { jobs } = await (await s.call('/_jobs')).json()
    expect(jobs.find((j: { path: string }) => j.path === '/invoices')).toMatchObject({
      mode: 'live',
      liveVersion: result.version,
      prompt: 'Create a customer in the CRM and return its id',
    })
  })

  test('a job new to the running server is routable as soon as the import commits', async () => {
    expect((await callLive('/orders/42')).status).toBe(404)
    const file = await writeFile('orders.json', jobFile('/orders/:id'))
    const r = await cli(['jobs', 'import', file, '--live', '--data', s.dataDir])
    expect(r.stdout).toBe('Imported POST /orders/:id as version 1 (new job, 2 samples); live\n')
    await eventually(async () => ![404, 409].includes((await callLive('/orders/42')).status))
  })

  test('importing the same file twice adds a version, not the samples again', async () => {
    const dir = freshDir()
    const file = await writeFile('twice.json', jobFile('/customers'))
    const runImport = async () =>
      JSON.parse((await cli(['jobs', 'import', file, '--json', '--data', dir])).stdout)
    expect(await runImport()).toMatchObject({ version: 1, created: true, samplesAdded: 2, mode: 'learning' })
    expect(await runImport()).toMatchObject({ version: 2, created: false, samplesAdded: 0, draftVersion: 2 })
    const { jobs } = JSON.parse((await cli(['jobs', 'list', '--json', '--data', dir])).stdout)
    expect(jobs).toHaveLength(1)
    expect(jobs[0].scenarios).toEqual(
      expect.arrayContaining([
        { name: 'duplicate customer', samples: 1, passing: 1 },
        { name: 'unsorted', samples: 1, passing: 0 },
      ]),
    )
  })
})

describe('importJob in the server process', () => {
  test('the job is routable and live on the next request, and jobs.changed fires', async () => {
    const changed: string[] = []
    s.ctx.events.on('jobs.changed', (id) => changed.push(id))
    const { job, created } = importJob(s.ctx, jobFile('/leads/:id'), { live: true })
    expect(created).toBe(true)
    expect(changed).toContain(job.id)
    expect(job).toMatchObject({
      mode: 'live',
      liveVersion: 1,
      desktopPool: ['front-desk-1'],
      timeoutMs: 60000,
    })
    expect(![404, 409].includes((await callLive('/leads/7')).status)).toBe(true)
  })

  test('a route clash rolls the whole import back', () => {
    expect(() => importJob(s.ctx, jobFile('/leads/:leadId'))).toThrow(
      /same shape as a job already registered/,
    )
    expect(getJobByRoute(s.ctx, 'POST', '/leads/:leadId')).toBeUndefined()
    expect(getJobByRoute(s.ctx, 'POST', '/leads/:id')?.liveVersion).toBe(1)
  })
})

describe('help', () => {
  test.each([['export'], ['import']])('jobs %s --help', async (name) => {
    const r = await cli(['jobs', name, '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Usage: deskhook jobs ${name}`)
  })

  test('--version after a command belongs to the command; before it, to deskhook', async () => {
    expect((await cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/)
    expect(
      (await cli(['jobs', 'export', 'POST', '/x', '--version', '2', '--data', freshDir()])).stderr,
    ).toContain('No job is registered on POST /x')
  })
})
