/**
 * Bundles the dashboard's islands (src/dashboard/islands/main.ts) into
 * src/dashboard/assets/dist/dashboard.js, which src/dashboard/assets.ts embeds in the binary.
 * The bundle is committed so a clean clone serves the dashboard without a build step; a test
 * (test/dashboard/assets.test.ts) fails when it is out of date. Run: `bun run build:dashboard`.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export async function bundleIslands(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, '../src/dashboard/islands/main.ts')],
    target: 'browser',
    format: 'esm',
    minify: true,
  })
  if (!result.success) throw new AggregateError(result.logs, 'the dashboard islands did not bundle')
  return `${(await result.outputs[0]!.text()).trim()}\n`
}

if (import.meta.main) {
  const out = join(import.meta.dir, '../src/dashboard/assets/dist/dashboard.js')
  const code = await bundleIslands()
  writeFileSync(out, code)
  console.log(`wrote ${out} (${code.length} bytes)`)
}
