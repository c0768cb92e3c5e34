import { createHmac } from 'node:crypto'
import stableStringify from 'safe-stable-stringify'
import type { AppContext } from '../../context.ts'
import { MASK } from './scrub.ts'
import { restoreSecretInputs, type SecretInputValues, splitSecretInputs } from './secret-inputs.ts'
import { secretsKey } from './service.ts'

/**
 * Where a secret input's value must be compared but not kept (an Idempotency-Key's fingerprint,
 * the values a removed sample submitted), it is replaced by an HMAC keyed from the secrets key:
 * equal values give equal digests, and a digest in the database cannot be brute-forced back to a
 * password the way a plain hash of it could.
 */
const PREFIX = `${MASK}hmac:`

const digestKeys = new WeakMap<AppContext, Buffer>()

function digestKey(ctx: AppContext): Buffer {
  let key = digestKeys.get(ctx)
  if (!key) {
    // A key of its own, derived from the secrets key: the AES key never doubles as an HMAC key.
    key = createHmac('sha256', secretsKey(ctx, true)!).update('deskhook.secret-digest').digest()
    digestKeys.set(ctx, key)
  }
  return key
}

export const isSecretDigest = (value: unknown): boolean =>
  typeof value === 'string' && value.startsWith(PREFIX)

/**
 * The input with each secret path's value replaced by its digest (values already digested stay).
 * `scope` says what the digests are for (`idempotency:<jobId>`), so they match only there.
 */
export function digestSecretInputs(
  ctx: AppContext,
  scope: string,
  input: Record<string, unknown>,
  paths: readonly string[],
): Record<string, unknown> {
  const { masked, values } = splitSecretInputs(input, paths)
  const entries = Object.entries(values)
  if (entries.length === 0) return input
  const digests: SecretInputValues = {}
  for (const [path, value] of entries)
    digests[path] = isSecretDigest(value)
      ? value
      : PREFIX +
        createHmac('sha256', digestKey(ctx))
          .update(`${scope}\n${path}\n${stableStringify(value)}`)
          .digest('base64url')
  return restoreSecretInputs(masked, digests)
}
