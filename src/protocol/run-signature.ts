// Signed runs: an agent runs only what its own server sent. Both ends derive a run-signing key from
// the desktop's credential secret (the server sees it at each hello, the agent has it saved); the
// database keeps only the secret's hash, so someone who reads or writes the database cannot sign.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import stableStringify from 'safe-stable-stringify'
import type { Automation } from './automation.ts'

/** Names what the key is for, so the same secret never signs anything else by accident. */
export const RUN_SIGNING_CONTEXT = 'deskhook.run-signing.v1'

/** HMAC-SHA256(secret, context): held in memory for one connection (server) or one process (agent). */
export function runSigningKey(desktopSecret: string): Buffer {
  return createHmac('sha256', desktopSecret).update(RUN_SIGNING_CONTEXT).digest()
}

/** SHA-256 (hex) of the automation's canonical JSON: what the audit log records and the signature covers. */
export function automationDigest(automation: Automation): string {
  return createHash('sha256')
    .update(stableStringify(automation) ?? '')
    .digest('hex')
}

/** The fields of a run request that the signature covers: everything the agent acts on. */
export interface SignedRunFields {
  runId: string
  lease: string
  automation: Automation
  input: Record<string, unknown>
  timeoutMs: number
}

/**
 * Canonical JSON (sorted keys) of the run with the automation as its digest: the server hashes each
 * version once (cached), the agent hashes what it received. The input is covered as well, so a run
 * cannot be pointed at other values on the way.
 */
function signedText(run: SignedRunFields, automationSha256: string): string {
  return (
    stableStringify({
      v: 1,
      runId: run.runId,
      lease: run.lease,
      timeoutMs: run.timeoutMs,
      automationSha256,
      input: run.input,
    }) ?? ''
  )
}

/** HMAC-SHA256 (hex) of the run; pass the automation's digest when it is known already. */
export function signRun(
  key: Buffer,
  run: SignedRunFields,
  automationSha256 = automationDigest(run.automation),
): string {
  return createHmac('sha256', key).update(signedText(run, automationSha256)).digest('hex')
}

export type RunSignatureCheck = 'valid' | 'unsigned' | 'mismatch'

/** Recomputes the signature of what arrived and compares it in constant time. */
export function checkRunSignature(
  key: Buffer | undefined,
  run: SignedRunFields & { signature?: string },
): RunSignatureCheck {
  if (!run.signature) return 'unsigned'
  if (!key) return 'mismatch'
  const expected = Buffer.from(signRun(key, run), 'hex')
  const given = Buffer.from(run.signature, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'mismatch'
}
