/**
 * `bun run bench:runtime`: what building the Windows agent for CPUs without AVX2 costs (docs/windows.md,
 * "The exe"). The agent's own CPU work (bench/windows-runtime-work.ts) is compiled with Bun's
 * Windows runtime with AVX2 (`bun-windows-x64`) and without (`bun-windows-x64-baseline`, the one
 * the installers ship) and run under Wine, turn about; the same for Linux natively, as a check
 * that Wine is not what decides. Prints medians and the ratio baseline / AVX2 (1.00: no cost).
 *   bun bench/windows-runtime.ts [runs=5] [rounds=15]
 */
import { join } from 'node:path'
import { tempDir } from '../test/helpers/temp-dir.ts'
import { WINE, wine } from '../test/installer/wine.ts'

const runs = Number(process.argv[2] ?? 5)
const rounds = Number(process.argv[3] ?? 15)
const dir = tempDir('deskhook-runtime-bench-')
const WORK = join(import.meta.dir, 'windows-runtime-work.ts')

interface Timing {
  elements: number
  snapshotMs: number
  redactionMs: number
}

function compile(target: string): string {
  const out = join(dir.path, `${target}${target.includes('windows') ? '.exe' : ''}`)
  const build = Bun.spawnSync(
    [process.execPath, 'build', '--compile', '--minify', `--target=${target}`, WORK, '--outfile', out],
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  if (build.exitCode !== 0) throw new Error(`${target}: ${build.stderr.toString()}`)
  return out
}

async function once(exe: string): Promise<Timing> {
  const prefix = join(dir.path, 'wine')
  const run = exe.endsWith('.exe')
    ? await wine(exe, [String(rounds)], prefix)
    : (() => {
        const p = Bun.spawnSync([exe, String(rounds)], { stdout: 'pipe', stderr: 'pipe' })
        return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
      })()
  if (run.code !== 0) throw new Error(`${exe} failed (${run.code}): ${run.stderr}`)
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Timing
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

try {
  const pairs: [string, string, string][] = [
    ['Windows (Wine)', 'bun-windows-x64', 'bun-windows-x64-baseline'],
  ]
  pairs.push(['Linux', 'bun-linux-x64', 'bun-linux-x64-baseline'])
  if (!(await Bun.file(WINE).exists())) {
    console.log(`${WINE} is missing (bun scripts/ensure-windows-tools.ts): Linux only`)
    pairs.shift()
  }
  const lines = [
    '| runtime | part | AVX2 (ms) | baseline (ms) | baseline / AVX2 |',
    '| --- | --- | ---: | ---: | ---: |',
  ]
  for (const [label, avx2, baseline] of pairs) {
    const exes = { avx2: compile(avx2), baseline: compile(baseline) }
    const seen: Record<'avx2' | 'baseline', Timing[]> = { avx2: [], baseline: [] }
    await once(exes.avx2) // the first start fills Wine's prefix and the OS's caches
    for (let i = 0; i < runs; i++)
      for (const kind of i % 2 ? (['baseline', 'avx2'] as const) : (['avx2', 'baseline'] as const))
        seen[kind].push(await once(exes[kind]))
    for (const part of ['snapshotMs', 'redactionMs'] as const) {
      const a = median(seen.avx2.map((t) => t[part]))
      const b = median(seen.baseline.map((t) => t[part]))
      const name =
        part === 'snapshotMs' ? `snapshot of ${seen.avx2[0]!.elements} elements` : 'screenshot redaction'
      lines.push(`| ${label} | ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`)
    }
  }
  console.log(lines.join('\n'))
} finally {
  dir.remove()
}
