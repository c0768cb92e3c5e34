import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { importJob } from '../../src/modules/jobs/export-import.ts'
import { crmJobFile, writeJobFile } from '../fixtures/job-files/crm.ts'
import { cli } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer
const dirs = [tempDir('deskhook-job-files-')]
const files = dirs[0]!.path

beforeAll(async () => {
  s = await startTestServer()
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

const writeFile = (name: string, content: unknown) => writeJobFile(files, name, content)
const jobFile = crmJobFile

describe('refusals', () => {
  const badStep = () => {
    const file = jobFile('/customers')
    ;(file.automation.steps[2] as { kind: string }).kind = 'hover'
    return file
  }
  const cases: [string, unknown, string[]][] = [
    ['not JSON', '{"format": "deskhook.job",', ['is not JSON']],
    ['another format', jobFile('/customers', { format: 'zapier.zap' }), ['format: must be "deskhook.job"']],
    ['a newer version', jobFile('/customers', { version: 2 }), ['version: must be 1']],
    ['a reserved path', jobFile('/_jobs'), ['path: /_jobs is reserved']],
    [
      'an unknown step kind',
      badStep(),
      ['automation.steps.2.kind: must be one of launch, focus, click', 'got "hover"'],
    ],
  ]
  test.each(cases)(
    'a file with %s is refused, naming the problem and where it is',
    async (name, content, says) => {
      const dir = freshDir()
      const r = await cli(['jobs', 'import', await writeFile(`${name}.json`, content), '--data', dir])
      expect(r.code).toBe(1)
      for (const text of says) expect(r.stderr).toContain(text)
      expect((await cli(['jobs', 'list', '--data', dir])).stdout).toContain('No jobs yet')
    },
  )

  test('every problem of a file is listed, not only the first', async () => {
    const file = { ...badStep(), path: '/_builds', method: 'TRACE', timeoutMs: 'soon' }
    const r = await cli(['jobs', 'import', await writeFile('many.json', file), '--data', freshDir()])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Not a valid deskhook job file (4 problems)')
    for (const member of ['timeoutMs:', 'method:', 'path:', 'automation.steps.2.kind:'])
      expect(r.stderr).toContain(`  - ${member}`)
  })

  test('exporting a job that has no version yet fails clearly', async () => {
    await s.call('/tickets', { method: 'POST', json: teachBody({ prompt: 'Open a ticket' }) })
    const r = await cli(['jobs', 'export', 'POST', '/tickets', '--data', s.dataDir])
    expect(r.code).not.toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('POST /tickets has no version to export yet')
  })

  test('exporting an unknown job or version exits 3', async () => {
    const unknown = await cli(['jobs', 'export', 'POST', '/nope', '--data', s.dataDir])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('No job is registered on POST /nope')
    importJob(s.ctx, jobFile('/customers'))
    const version = await cli(['jobs', 'export', 'POST', '/customers', '--version', '7', '--data', s.dataDir])
    expect(version.code).toBe(3)
    expect(version.stderr).toContain('POST /customers has no version 7')
  })
})
