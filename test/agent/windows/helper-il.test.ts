import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildUiaHelper, FRAMEWORK_REFERENCES } from '../../../scripts/build-uia-helper.ts'
import { CECIL, checkHelperIl, describeMissing } from '../../../scripts/check-helper-il.ts'

/**
 * The helper's IL against .NET Framework 4.8 (scripts/check-helper-il.ts): the helper as built
 * references nothing 4.8 lacks, and the check does catch what Mono has and 4.8 does not.
 */
// The tools come with `bun scripts/ensure-windows-tools.ts` (part of `bun run ci`); without them
// the first test fails naming what is missing.
const missing = [
  ...['mcs', 'mono'].filter((tool) => !Bun.which(tool)),
  ...[join(FRAMEWORK_REFERENCES, 'mscorlib.dll'), CECIL].filter((path) => !existsSync(path)),
]

/** Mono's implementation assemblies: what the helper used to be compiled against. */
const MONO_IMPLEMENTATION = '/usr/lib/mono/4.5'

async function mcs(args: string[]): Promise<void> {
  const proc = Bun.spawn(['mcs', ...args], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  if (code !== 0) throw new Error(`mcs failed:\n${out}${err}`)
}

describe('the helper IL check against .NET Framework 4.8', () => {
  test('its tools are installed (bun scripts/ensure-windows-tools.ts)', () => {
    expect(missing).toEqual([])
  })

  const folder = mkdtempSync(join(tmpdir(), 'helper-il-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  const helper = join(folder, 'uia-helper.exe')
  beforeAll(async () => {
    await buildUiaHelper(helper)
  }, 120_000)

  test('the helper as built references only what 4.8 has, and the list covers every kind of member', async () => {
    const check = await checkHelperIl(helper)
    expect(describeMissing(check)).toBe(`${helper} references 0 member(s) .NET Framework 4.8 does not have:`)
    const members = check.references.map((reference) => reference.member)
    // Each kind is listed: the framework assemblies, types, methods, accessors, constructors.
    expect(
      check.references
        .filter((r) => r.kind === 'assembly')
        .map((r) => r.assembly)
        .sort(),
    ).toEqual(['System', 'System.Core', 'System.Drawing', 'mscorlib'])
    expect(members).toContain('System.Runtime.InteropServices.COMException')
    expect(members).toContain('System.String System.String::Join(System.String,System.String[])')
    expect(members).toContain('System.Int32 System.Collections.Generic.List`1<System.Object>::get_Count()')
    expect(members.some((m) => m.startsWith('System.Void System.Collections.Generic.Dictionary`2<'))).toBe(
      true,
    )
    // The splits are the 4.8 overload (params char[]), and Queue<T> comes from System.dll as in 4.8.
    expect(members).toContain('System.String[] System.String::Split(System.Char[])')
    expect(members).not.toContain(
      'System.String[] System.String::Split(System.Char,System.StringSplitOptions)',
    )
    const queue = check.references.find(
      (r) => r.kind === 'type' && r.member === 'System.Collections.Generic.Queue`1',
    )
    expect(queue?.assembly).toBe('System')
  }, 60_000)

  test("it fails on members Mono has and 4.8 lacks: String.Split(char), mscorlib's Queue<T>", async () => {
    const source = join(folder, 'bad.cs')
    writeFileSync(
      source,
      [
        'using System.Collections.Generic;',
        'static class Bad {',
        '  static int Main() {',
        '    var parts = "a.b".Split(\'.\');',
        '    var queue = new Queue<string>(parts);',
        '    return queue.Count + "x".Split(new[] { \'.\' }).Length;',
        '  }',
        '}',
      ].join('\n'),
    )
    const bad = join(folder, 'bad.exe')
    await mcs([
      '-nostdlib',
      ...['mscorlib.dll', 'System.dll'].map((name) => `-r:${join(MONO_IMPLEMENTATION, name)}`),
      `-out:${bad}`,
      source,
    ])
    const check = await checkHelperIl(bad)
    const offending = check.missing.map((reference) => `${reference.kind} ${reference.member}`)
    expect(offending).toContain(
      'method System.String[] System.String::Split(System.Char,System.StringSplitOptions)',
    )
    expect(offending).toContain('type System.Collections.Generic.Queue`1')
    expect(offending).toContain(
      'constructor System.Void System.Collections.Generic.Queue`1<System.String>::.ctor(System.Collections.Generic.IEnumerable`1<!0>)',
    )
    // What 4.8 has is not flagged: the char[] overload, the assembly references themselves.
    expect(offending.some((line) => line.includes('Split(System.Char[])'))).toBe(false)
    expect(check.missing.every((reference) => reference.kind !== 'assembly')).toBe(true)
    expect(describeMissing(check)).toContain('no such member in the reference set')

    // The CLI says the same and exits non-zero.
    const proc = Bun.spawn(
      ['bun', join(import.meta.dir, '../../../scripts/check-helper-il.ts'), '--exe', bad],
      {
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
    expect(code).toBe(1)
    expect(stderr).toContain('System.String::Split(System.Char,System.StringSplitOptions)')
  }, 60_000)

  test('an assembly outside the framework is flagged as such', async () => {
    const source = join(folder, 'posix.cs')
    writeFileSync(
      source,
      'static class P { static int Main() { return (int)Mono.Unix.Native.Syscall.getpid(); } }',
    )
    const exe = join(folder, 'posix.exe')
    await mcs([`-r:${join(MONO_IMPLEMENTATION, 'Mono.Posix.dll')}`, `-out:${exe}`, source])
    const check = await checkHelperIl(exe)
    expect(check.missing.find((r) => r.kind === 'assembly')).toMatchObject({
      assembly: 'Mono.Posix',
      why: 'not an assembly of the reference set',
    })
    expect(check.missing.find((r) => r.kind === 'method')?.why).toContain(
      'Mono.Posix is not in the reference set',
    )
  }, 60_000)
})
