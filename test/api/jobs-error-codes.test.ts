import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BUILD_UNREADABLE } from '../../src/db/unreadable-rows.ts'
import { ErrorStatus } from '../../src/lib/errors.ts'
import { BUILD_CANCELLED } from '../../src/modules/builds/cancel.ts'
import { RUN_ERROR_CODES } from '../../src/protocol/automation.ts'

/**
 * The README's error-code table is the list a caller codes against: every code a response can
 * carry must be in it, with the HTTP status it comes with. Codes are gathered from the source.
 */
const ROOT = join(import.meta.dir, '../..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** `| \`CODE\` | 404 | when |` rows of the README, code → status column. */
function readmeTable(): Map<string, string> {
  const rows = new Map<string, string>()
  for (const line of read('README.md').split('\n')) {
    const m = /^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|\s*([^|]+?)\s*\|\s*([^|]*?)\s*\|$/.exec(line)
    if (!m) continue
    expect(rows.has(m[1]!), `${m[1]} is listed twice`).toBe(false)
    expect(m[3]!.length, `${m[1]} says when it happens`).toBeGreaterThan(10)
    rows.set(m[1]!, m[2]!)
  }
  return rows
}

/**
 * The `BuildFailureCode` union's members, from the builder's contract, and the build errors the
 * server sets itself (a cancelled build).
 */
function buildFailureCodes(): string[] {
  const source = read('src/builder/contract.ts')
  const union = /export type BuildFailureCode =([\s\S]*?)(?:\n\n|\nexport |$)/.exec(source)?.[1] ?? ''
  return [
    ...[...union.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\|\s*'([A-Z_]+)'/g)].map((m) => m[1]!),
    BUILD_CANCELLED,
    // Set at start-up on a build whose stored data cannot be read (src/db/unreadable-rows.ts).
    BUILD_UNREADABLE,
  ]
}

/** Codes the server itself sets on runs and builds: `code: 'X'` (or `code: c ? 'X' : 'Y'`) literals. */
function serverSetCodes(): string[] {
  const codes = new Set<string>()
  for (const dir of ['src/runtime', 'src/modules']) {
    for (const file of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue
      for (const line of read(join(dir, file)).split('\n')) {
        const at = line.indexOf('code:')
        if (at < 0) continue
        for (const m of line.slice(at).matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)) codes.add(m[1]!)
      }
    }
  }
  return [...codes]
}

describe('README error-code table', () => {
  const table = readmeTable()

  test('lists every HTTP error code with its status', () => {
    const wrong = Object.entries(ErrorStatus)
      .filter(([code, status]) => table.get(code) !== String(status))
      .map(
        ([code, status]) =>
          `${code}: README says ${table.get(code) ?? 'nothing'}, the code answers ${status}`,
      )
    expect(wrong).toEqual([])
  })

  test('lists every run error code, as a 502', () => {
    const runCodes = [...RUN_ERROR_CODES, ...serverSetCodes().filter((c) => !(c in ErrorStatus))]
    const builds = new Set(buildFailureCodes())
    const wrong = runCodes
      .filter((c) => !builds.has(c))
      .filter((c) => table.get(c) !== '502')
      .map((c) => `${c}: README says ${table.get(c) ?? 'nothing'}`)
    expect(wrong).toEqual([])
  })

  test('lists every build failure code', () => {
    const codes = buildFailureCodes()
    expect(codes).toContain('NO_FORM_FOUND') // the parse found the union
    expect(codes.filter((c) => !table.has(c))).toEqual([])
  })

  test('lists nothing the source does not have', () => {
    const known = new Set([
      ...Object.keys(ErrorStatus),
      ...RUN_ERROR_CODES,
      ...buildFailureCodes(),
      ...serverSetCodes(),
    ])
    expect([...table.keys()].filter((c) => !known.has(c))).toEqual([])
  })
})
