/**
 * Compiles the Windows agent: deskhook for Windows x64 with the UI Automation helper embedded, so
 * `deskhook agent` drives the desktop with `--driver windows` (its default there) and nothing else
 * to install. What the exe is (docs/windows.md, "The exe"):
 * - built for x64 CPUs without AVX2 (`--target=bun-windows-x64-baseline`): budget office CPUs
 *   and some virtual desktops lack it, and the AVX2 runtime ends at start there;
 * - a GUI program (`--windows-hide-console`): no console window at logon, its log goes to
 *   `%LOCALAPPDATA%\deskhook\logs` (src/lib/log-file.ts);
 * - with deskhook's version resource and icon, stamped after the build (scripts/windows-exe.ts).
 *   bun scripts/build-windows-agent.ts                → dist/deskhook.exe
 *   bun scripts/build-windows-agent.ts --outfile <f>  → somewhere else
 * Needs the helper built first (`bun run build:uia-helper`). Bun fetches its Windows runtime from
 * the npm registry the first time.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { VERSION } from '../src/version.ts'
import { HELPER_EXE, isFresh } from './build-uia-helper.ts'
import { exeFacts, stampExe, windowsFileVersion } from './windows-exe.ts'

const { values } = parseArgs({ options: { outfile: { type: 'string' } } })
const root = join(import.meta.dir, '..')
const outfile = values.outfile ?? join(root, 'dist/deskhook.exe')

function fail(message: string): never {
  process.stderr.write(`build:agent-windows: ${message}\n`)
  process.exit(1)
}

let helper: Buffer
try {
  helper = readFileSync(HELPER_EXE)
} catch {
  fail(
    `the UI Automation helper is not built (${relative(root, HELPER_EXE)}): run \`bun run build:uia-helper\` first`,
  )
}
// An agent must never ship a helper older than its sources.
if (!isFresh())
  fail(
    `${relative(root, HELPER_EXE)} is older than the helper's sources: run \`bun run build:uia-helper\` again`,
  )

const started = performance.now()
const build = Bun.spawn(
  [
    process.execPath,
    'build',
    '--compile',
    '--minify',
    '--sourcemap',
    '--target=bun-windows-x64-baseline',
    '--windows-hide-console',
    'src/main.ts',
    '--outfile',
    outfile,
  ],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
)
const code = await build.exited
if (code !== 0) process.exit(code)

const version = windowsFileVersion(VERSION)
writeFileSync(
  outfile,
  stampExe(readFileSync(outfile), {
    version,
    productName: 'deskhook',
    companyName: 'deskhook',
    description: 'deskhook agent',
    copyright: 'deskhook',
    originalFilename: 'deskhook.exe',
    icon: readFileSync(join(import.meta.dir, 'windows/deskhook.ico')),
  }),
)

// The helper goes in only when the bundler kept the Windows branch (windows/index.ts): check it did.
const exe = readFileSync(outfile)
if (exe.indexOf(helper) < 0) fail(`${outfile} was built without the UI Automation helper in it`)
const facts = exeFacts(exe)
if (facts.subsystem !== 2) fail(`${outfile} is not a GUI program (subsystem ${facts.subsystem})`)
const mib = (statSync(outfile).size / 2 ** 20).toFixed(1)
console.log(
  `built ${outfile.startsWith(root) ? relative(root, outfile) : outfile} ${facts.fileVersion} (${mib} MiB, ` +
    `x64 without AVX2, no console window, UI Automation helper embedded) in ` +
    `${Math.round(performance.now() - started)} ms`,
)
