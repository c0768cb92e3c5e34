/**
 * The IL check: lists every assembly, type, method, property or event accessor, constructor and
 * field that the UI Automation helper's compiled IL references outside itself, resolves each
 * against .NET Framework 4.8's reference assemblies (FRAMEWORK_REFERENCES; docs/windows-helper.md
 * says where they come from) and nothing else, and fails on any that 4.8 lacks: such a call would
 * throw MissingMethodException or TypeLoadException on a real PC although mono runs it. Only the
 * assemblies of FRAMEWORK_ASSEMBLIES count as there: a reference to any other fails too.
 *   bun scripts/check-helper-il.ts                    → the helper (built first when stale)
 *   bun scripts/check-helper-il.ts --exe <file>       → another assembly
 *   bun scripts/check-helper-il.ts --list             → and print every reference
 * Exits 1 listing the offending references; 2 when the tools are missing.
 * The resolving is done by scripts/check-helper-il.cs with Mono.Cecil (Debian:
 * libmono-cecil-private-cil, a dependency of mono-devel), compiled here with mcs.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  buildUiaHelper,
  FRAMEWORK_ASSEMBLIES,
  FRAMEWORK_REFERENCES,
  HELPER_EXE,
  isFresh,
} from './build-uia-helper.ts'

export const CECIL = '/usr/lib/mono/gac/Mono.Cecil/0.11.0.0__0738eb9f132ed756/Mono.Cecil.dll'
const CHECKER_SOURCE = join(import.meta.dir, 'check-helper-il.cs')

export interface IlReference {
  kind: 'assembly' | 'type' | 'method' | 'accessor' | 'constructor' | 'field'
  /** As Cecil writes it: `System.String[] System.String::Split(System.Char[])`. */
  member: string
  /** The assembly it is referenced in (mscorlib, System, …). */
  assembly: string
  found: boolean
  /** Why it is not in the reference set, when it is not. */
  why?: string
}

export interface IlCheck {
  assembly: string
  references: IlReference[]
  missing: IlReference[]
}

async function run(command: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

/** The checker's exe, compiled once per version of its source into the temp folder. */
async function checker(): Promise<string> {
  for (const [tool, pkg] of [
    ['mcs', 'mono-mcs'],
    ['mono', 'mono-runtime'],
  ] as const)
    if (!Bun.which(tool)) throw new Error(`${tool} is not installed: apt-get install -y ${pkg}`)
  if (!existsSync(CECIL)) throw new Error(`${CECIL} is missing: apt-get install -y libmono-cecil-private-cil`)
  if (!existsSync(join(FRAMEWORK_REFERENCES, 'mscorlib.dll')))
    throw new Error(
      `${FRAMEWORK_REFERENCES} is missing (.NET Framework 4.8's reference set): apt-get install -y mono-devel`,
    )
  const source = readFileSync(CHECKER_SOURCE)
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16)
  const folder = join(tmpdir(), 'deskhook-il-check')
  const exe = join(folder, `check-helper-il-${hash}.exe`)
  if (existsSync(exe)) return exe
  mkdirSync(folder, { recursive: true })
  // Written under another name and moved into place: a parallel run never sees half an exe.
  const partial = `${exe}.${process.pid}.tmp`
  const compiled = await run([
    'mcs',
    '-warnaserror+',
    `-r:${CECIL}`,
    '-target:exe',
    `-out:${partial}`,
    CHECKER_SOURCE,
  ])
  if (compiled.code !== 0)
    throw new Error(`mcs failed on ${CHECKER_SOURCE}:\n${compiled.stdout}${compiled.stderr}`)
  renameSync(partial, exe)
  return exe
}

/** Every external reference of `assembly`'s IL, resolved against .NET Framework 4.8's reference set. */
export async function checkHelperIl(
  assembly: string,
  references = FRAMEWORK_REFERENCES,
  assemblies = FRAMEWORK_ASSEMBLIES,
): Promise<IlCheck> {
  const exe = await checker()
  const result = await run(['mono', exe, assembly, references, assemblies.join(',')])
  if (result.code !== 0) throw new Error(`the IL checker failed (exit ${result.code}):\n${result.stderr}`)
  const parsed = JSON.parse(result.stdout) as { assemblies: IlReference[]; references: IlReference[] }
  const all = [...parsed.assemblies, ...parsed.references]
  return { assembly, references: all, missing: all.filter((reference) => !reference.found) }
}

export function describeMissing(check: IlCheck): string {
  return [
    `${check.assembly} references ${check.missing.length} member(s) .NET Framework 4.8 does not have:`,
    ...check.missing.map(
      (reference) => `  [${reference.assembly}] ${reference.kind} ${reference.member}: ${reference.why}`,
    ),
  ].join('\n')
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { exe: { type: 'string' }, list: { type: 'boolean' } } })
  let check: IlCheck
  try {
    const exe = values.exe ?? HELPER_EXE
    if (!values.exe && !isFresh()) await buildUiaHelper()
    check = await checkHelperIl(exe)
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
  if (values.list)
    for (const reference of check.references)
      console.log(
        `${reference.found ? 'ok     ' : 'MISSING'} [${reference.assembly}] ${reference.kind} ${reference.member}`,
      )
  if (check.missing.length > 0) {
    console.error(describeMissing(check))
    process.exit(1)
  }
  const kinds = new Map<string, number>()
  for (const reference of check.references) kinds.set(reference.kind, (kinds.get(reference.kind) ?? 0) + 1)
  console.log(
    `${check.assembly}: all ${check.references.length} external references exist in .NET Framework 4.8 ` +
      `(${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')})`,
  )
}
