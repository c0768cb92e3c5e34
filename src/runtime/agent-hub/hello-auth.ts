import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import {
  authenticateDesktop,
  type Desktop,
  enrollDesktop,
  getDesktop,
} from '../../modules/desktops/service.ts'
import { CLOSE, type Hello, PROTOCOL_VERSION } from '../../protocol/messages.ts'
import { runSigningKey } from '../../protocol/run-signature.ts'
import { VERSION } from '../../version.ts'

export type HelloVerdict =
  | {
      ok: true
      desktop: Desktop
      /** Only on enrollment: the credential the welcome hands over. */
      credential?: { desktopId: string; secret: string }
      /** Signs this connection's runs; derived from the secret just checked, kept in memory only. */
      runKey: Buffer
    }
  | { ok: false; code: number; reason: string }

/**
 * Checks a hello: the protocol version, then an enrollment token (which enrolls the desktop) or a
 * desktop credential. The secret is seen here and nowhere else on the server, which is why the
 * run-signing key is derived here: the database holds only the secret's hash.
 */
export function authenticateHello(ctx: AppContext, hello: Hello): HelloVerdict {
  if (hello.protocol !== PROTOCOL_VERSION)
    return {
      ok: false,
      code: CLOSE.PROTOCOL,
      reason: `agent speaks protocol ${hello.protocol}, server ${VERSION} speaks ${PROTOCOL_VERSION}: upgrade the agent`,
    }
  if (hello.auth.kind === 'enroll') {
    const who = {
      name: hello.name,
      platform: hello.platform,
      driver: hello.driver,
      agentVersion: hello.agentVersion,
    }
    try {
      const { desktop, secret } = enrollDesktop(ctx, hello.auth.token, who)
      return {
        ok: true,
        desktop,
        credential: { desktopId: desktop.id, secret },
        runKey: runSigningKey(secret),
      }
    } catch (err) {
      ctx.log.warn({ name: hello.name }, 'agent enrollment refused')
      return {
        ok: false,
        code: CLOSE.AUTH_FAILED,
        reason: err instanceof AppError ? err.message : 'enrollment failed',
      }
    }
  }
  const { desktopId, secret } = hello.auth
  const desktop = authenticateDesktop(ctx, desktopId, secret)
  if (desktop) return { ok: true, desktop, runKey: runSigningKey(secret) }
  const revoked = getDesktop(ctx, desktopId)?.revokedAt
  ctx.log.warn({ desktopId, revoked: Boolean(revoked) }, 'agent credential refused')
  return revoked
    ? { ok: false, code: CLOSE.REVOKED, reason: 'this desktop was revoked' }
    : { ok: false, code: CLOSE.AUTH_FAILED, reason: 'unknown desktop or wrong credential' }
}

/**
 * The desktop whose credential a socket's upgrade named (AGENT_CLAIM_HEADER: "<desktopId>
 * <secret>"), when it is right: where the socket waits for its hello (pending-hellos.ts). The
 * hello is authenticated again all the same.
 */
export function claimedDesktop(ctx: AppContext, claim?: string | null): string | undefined {
  const [desktopId, secret, ...rest] = (claim ?? '').trim().split(/\s+/)
  if (!desktopId || !secret || rest.length || desktopId.length > 64 || secret.length > 256) return
  return authenticateDesktop(ctx, desktopId, secret)?.id
}
