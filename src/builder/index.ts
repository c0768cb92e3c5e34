// The builder (DESIGN §4): teach → automation. Offline and deterministic: it reads the prompt,
// explores the app through a DesktopPort, asks the person teaching through BuildIO when unsure,
// and hands back an automation that the real runner has verified on every sample.

import { extendBuild } from './compose/extend-build.ts'
import type { BuildIO, BuildRequest, BuildResult, DesktopPort } from './contract.ts'
import { firstBuild } from './pipeline.ts'
import { BuildFailure, BuildSession } from './session.ts'
import { signInBeforeExtending } from './sign-in/sign-in.ts'

export type * from './contract.ts'

/**
 * Builds (or extends, when `req.automation` is set) the automation for one sample. Failures the
 * person can act on come back as `{ok: false}`; an exception means the build itself was stopped
 * (the BuildIO gave up waiting for an answer) or a bug.
 */
export async function buildAutomation(
  port: DesktopPort,
  io: BuildIO,
  req: BuildRequest,
): Promise<BuildResult> {
  const session = new BuildSession(port, io, req)
  try {
    return req.automation
      ? await extendBuild(session, await signInBeforeExtending(session, req.automation))
      : await firstBuild(session)
  } catch (error) {
    if (!(error instanceof BuildFailure)) throw error
    io.progress('failed', error.message, { code: error.code })
    return { ok: false, code: error.code, message: error.message }
  }
}
