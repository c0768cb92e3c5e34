/**
 * Compiles deskhook into one executable (server, CLI and — later — the agent).
 *   bun run build                         → dist/deskhook (this machine's platform)
 *   bun run build --target bun-windows-x64 → dist/deskhook.exe
 *   bun run build --outfile /tmp/x        → somewhere else (the smoke test uses this)
 */
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { target: { type: 'string' }, outfile: { type: 'string' } },
})
const windows = values.target?.includes('windows') ?? false
const outfile = values.outfile ?? `dist/deskhook${windows ? '.exe' : ''}`
const args = ['build', '--compile', '--minify', '--sourcemap', 'src/main.ts', '--outfile', outfile]
if (values.target) args.push(`--target=${values.target}`)

const started = performance.now()
const proc = Bun.spawn([process.execPath, ...args], {
  stdout: 'inherit',
  stderr: 'inherit',
  cwd: `${import.meta.dir}/..`,
})
const code = await proc.exited
if (code !== 0) process.exit(code)
console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`)
