import { afterAll, expect, test } from 'bun:test'
import { cli } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const dir = tempDir()
afterAll(() => dir.remove())

const SECRET = /whsec_[A-Za-z0-9+/]{43}=/

test('deskhook webhooks secret shows one stable secret; --rotate replaces it', async () => {
  const shown = await cli(['webhooks', 'secret', '--data', dir.path])
  expect(shown.code).toBe(0)
  const secret = shown.stdout.match(SECRET)?.[0]
  expect(secret).toBeDefined()
  // 32 random bytes, as Standard Webhooks asks (24–64).
  expect(Buffer.from(secret!.slice('whsec_'.length), 'base64')).toHaveLength(32)

  const again = JSON.parse((await cli(['webhooks', 'secret', '--json', '--data', dir.path])).stdout)
  expect(again).toEqual({ secret, rotated: false })

  const rotated = await cli(['webhooks', 'secret', '--rotate', '--data', dir.path])
  expect(rotated.code).toBe(0)
  const next = rotated.stdout.match(SECRET)?.[0]
  expect(next).toBeDefined()
  expect(next).not.toBe(secret)
  expect(rotated.stdout).toContain('old secret until')

  const after = JSON.parse((await cli(['webhooks', 'secret', '--json', '--data', dir.path])).stdout)
  expect(after.secret).toBe(next)
})
