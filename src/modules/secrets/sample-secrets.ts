import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { samples } from '../../db/schema/index.ts'
import { openSecret, sealSecret } from './cipher.ts'
import { SECRETS_KEY_FILE } from './key-file.ts'
import { MASK } from './scrub.ts'
import { restoreSecretInputs, splitSecretInputs } from './secret-inputs.ts'
import { secretsKey } from './service.ts'

/**
 * A taught sample's secret inputs. The builder needs their values to verify the sample again in
 * later builds, so unlike a call's they are kept, but only sealed: the stored `input` holds MASK
 * (what the dashboard, the APIs and job files show) and `sealed_secret_inputs` holds each value
 * encrypted with the secrets key, bound to its job, sample and path.
 */

type Sealed = Record<string, string>

const context = (jobId: string, sampleId: string, path: string) =>
  `deskhook.sample-secret-input:${jobId}:${sampleId}:${path}`

/** The sample can be shown but not replayed: its values do not open with this data dir's key. */
export class SampleSecretsUnreadable extends Error {
  constructor(
    readonly sampleId: string,
    reason: string,
  ) {
    super(
      `Sample ${sampleId} cannot be replayed: ${reason}. Remove the sample and teach it again (or put back the secrets.key it was taught with)`,
    )
    this.name = 'SampleSecretsUnreadable'
  }
}

/**
 * The sample's input as stored: each secret path's value sealed (added to `sealed`) and MASK in
 * its place. A value that is MASK already (sealed before, or masked in a job file) is left.
 */
export function sealSampleInput(
  ctx: AppContext,
  jobId: string,
  sampleId: string,
  input: Record<string, unknown>,
  paths: readonly string[],
  sealed: Readonly<Sealed> = {},
): { input: Record<string, unknown>; sealedSecretInputs: Sealed; added: number } {
  const { masked, values } = splitSecretInputs(input, paths)
  const clear = Object.entries(values).filter(([, v]) => v !== MASK)
  if (clear.length === 0) return { input, sealedSecretInputs: { ...sealed }, added: 0 }
  const key = secretsKey(ctx, true)!
  const out: Sealed = { ...sealed }
  for (const [path, value] of clear)
    out[path] = sealSecret(key, JSON.stringify(value), context(jobId, sampleId, path)).toString('base64')
  return { input: masked, sealedSecretInputs: out, added: clear.length }
}

/**
 * The sample's input as it was taught, for the builder only: the sealed values put back.
 * Throws SampleSecretsUnreadable when the key is missing or is not the one that sealed them.
 */
export function openSampleInput(
  ctx: AppContext,
  sample: { id: string; jobId: string; input: Record<string, unknown>; sealedSecretInputs: Readonly<Sealed> },
): Record<string, unknown> {
  const entries = Object.entries(sample.sealedSecretInputs)
  if (entries.length === 0) return sample.input
  let key: Buffer | null
  try {
    key = secretsKey(ctx, false)
  } catch (err) {
    throw new SampleSecretsUnreadable(sample.id, (err as Error).message)
  }
  if (!key) throw new SampleSecretsUnreadable(sample.id, `the data dir has no ${SECRETS_KEY_FILE}`)
  const values: Record<string, unknown> = {}
  for (const [path, sealed] of entries) {
    try {
      values[path] = JSON.parse(
        openSecret(key, Buffer.from(sealed, 'base64'), context(sample.jobId, sample.id, path)),
      )
    } catch {
      throw new SampleSecretsUnreadable(
        sample.id,
        `its secret input "${path}" does not decrypt with this data dir's ${SECRETS_KEY_FILE} (was the key replaced?)`,
      )
    }
  }
  return restoreSecretInputs(sample.input, values)
}

/** Seals what the job's samples still hold in clear at `paths`; returns how many samples changed. */
export function sealJobSamples(
  ctx: AppContext,
  tx: Pick<AppContext['db'], 'select' | 'update'>,
  jobId: string,
  paths: readonly string[],
): number {
  if (paths.length === 0) return 0
  const rows = tx
    .select({ id: samples.id, input: samples.input, sealed: samples.sealedSecretInputs })
    .from(samples)
    .where(eq(samples.jobId, jobId))
    .all()
  let changed = 0
  for (const row of rows) {
    const stored = sealSampleInput(ctx, jobId, row.id, row.input, paths, row.sealed)
    if (stored.added === 0) continue
    tx.update(samples)
      .set({ input: stored.input, sealedSecretInputs: stored.sealedSecretInputs })
      .where(eq(samples.id, row.id))
      .run()
    changed++
  }
  return changed
}
