import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bundleIslands } from '../../scripts/build-dashboard.ts'
import { assets, findAsset } from '../../src/dashboard/assets.ts'

test('the committed island bundle is what the island sources build to (run `bun run build:dashboard`)', async () => {
  const committed = readFileSync(
    join(import.meta.dir, '../../src/dashboard/assets/dist/dashboard.js'),
    'utf8',
  )
  expect(committed).toBe(await bundleIslands())
}, 30_000)

test('every asset has a content-hashed URL and is found by it', () => {
  for (const a of Object.values(assets)) {
    expect(a.url).toMatch(/^\/_\/assets\/[\w.-]+\.[0-9a-f]{12}\.(css|js|svg)$/)
    expect(findAsset(a.url)).toBe(a)
    expect(a.body.length).toBeGreaterThan(0)
  }
})
