// The verify stage of a first build: the real runner replays the composed automation on the
// sample (up to the committing step on a live app, or the send in the record's own row) and on
// every earlier sample (verify.ts); only a verified automation is handed back.
import type { Automation } from '../../protocol/automation.ts'
import { type Plan, submitIndexOf } from '../compose/compose.ts'
import type { Finish } from '../compose/finish-build.ts'
import type { BuildResult } from '../contract.ts'
import type { Target } from '../outputs/outputs-or-scenario.ts'
import type { BuildSession } from '../session.ts'
import { requireInputsUsed } from './inputs-used.ts'
import { verify } from './verify.ts'

export async function verifyBuild(
  session: BuildSession,
  automation: Automation,
  f: Finish,
  plan: Plan,
  target: Target,
): Promise<BuildResult> {
  requireInputsUsed(session, automation, f.leaves, f.reading)
  const sendAt = plan.prefix.indexOf(f.firstSend)
  const verified = await verify(session, automation, session.request.sample, target, {
    after: f.observed.after,
    submitIndex: submitIndexOf(plan),
    ...(plan.opened ? { next: [plan.opened] } : {}),
    ...(sendAt >= 0 && f.sendsInRow ? { sendIndex: sendAt } : {}),
  })
  return { ok: true, ...verified, scenario: target.scenario, outcome: target.outcome }
}
