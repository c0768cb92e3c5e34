import type { BuildIO, DesktopPort, Question } from '../../builder/contract.ts'
import type { AppContext } from '../../context.ts'
import { askQuestion, earlierAnswer, getBuild, recordProgress } from '../../modules/builds/service.ts'
import { findRecording } from '../../modules/recordings/repo.ts'
import { scrubJobSecrets } from '../../modules/secrets/service.ts'
import type { Recording } from '../../protocol/recording.ts'

export class BuildCancelled extends Error {
  override readonly name = 'BuildCancelled'
}

/**
 * The builder's voice: progress goes to the build record; questions are asked on the build and
 * answered over HTTP. A question this build already had answered (asked again after a restart:
 * same kind and text) takes that answer; so does one an earlier build of the job had answered
 * (same kind, text and options), e.g. after a failed build, so nobody is asked twice. The job's
 * secret values are masked in everything written.
 */
export function buildIO(
  ctx: AppContext,
  buildId: string,
  signal: AbortSignal,
  secrets: Readonly<Record<string, string>> = {},
): BuildIO {
  const scrub = <T>(value: T): T => scrubJobSecrets(secrets, value)
  return {
    progress(stage, message, data) {
      // A cancelled build (its job or sample was deleted) may still be winding down: it has no record.
      if (signal.aborted) return
      const status = stage === 'verify' ? 'verifying' : 'exploring'
      recordProgress(ctx, buildId, scrub({ stage, message, ...(data ? { data } : {}) }), status)
    },
    async ask(raw: Question) {
      if (signal.aborted) throw new BuildCancelled('the build was cancelled')
      const question = scrub(raw)
      const build = getBuild(ctx, buildId)
      const given = build.answers.find((a) => a.kind === question.kind && a.questionText === question.text)
      if (given) {
        recordProgress(ctx, buildId, {
          stage: 'answer',
          message: `Using the earlier answer to "${question.text}"`,
        })
        return given.answer
      }
      const before = earlierAnswer(ctx, build.jobId, question)
      if (before) {
        const shown = Array.isArray(before.answer) ? before.answer.join(', ') : before.answer
        recordProgress(ctx, buildId, {
          stage: 'answer',
          message: `Not asking again: "${question.text}" was answered in an earlier build of this job (${shown})`,
          data: { kind: question.kind, answer: before.answer, fromBuild: before.buildId },
        })
        return before.answer
      }
      const asked = askQuestion(ctx, buildId, question).question!
      return new Promise<string | string[]>((resolve, reject) => {
        const onAnswer = (id: string) => {
          if (id !== buildId) return
          const answer = getBuild(ctx, buildId).answers.find((a) => a.questionId === asked.id)
          if (!answer) return
          ctx.events.off('build.answered', onAnswer)
          resolve(answer.answer)
        }
        ctx.events.on('build.answered', onAnswer)
        signal.addEventListener('abort', () => {
          ctx.events.off('build.answered', onAnswer)
          reject(new BuildCancelled('the build was cancelled'))
        })
      })
    },
    async recording(recordingId: string): Promise<Recording> {
      const row = findRecording(ctx, recordingId)
      // The answer was checked when given; the row may have gone with a deleted job since.
      if (!row || row.buildId !== buildId || row.status !== 'done' || !row.window || !row.endedAt)
        throw new Error(`recording ${recordingId} of build ${buildId} is not available`)
      return {
        window: row.window,
        startedAt: row.startedAt,
        endedAt: row.endedAt,
        // Screenshots stay on disk: the builder reads screens, not pictures.
        actions: row.actions.map(({ shot: _, ...a }) => a),
        snapshots: row.snapshots,
      }
    },
  }
}

/**
 * Verification runs get the job's secrets in their input (`{{$secrets.NAME}}`) like live runs,
 * and what they report comes back with the values masked. `secrets` is read at each run: a secret
 * set while the build waits is used from then on.
 */
export function withJobSecrets(port: DesktopPort, secrets: Readonly<Record<string, string>>): DesktopPort {
  return {
    ...port,
    name: port.name,
    async run(automation, input) {
      // A sample cannot bring `$secrets` of its own: only the job's are used.
      const { $secrets: _, ...rest } = input
      const some = Object.keys(secrets).length > 0
      const outcome = await port.run(automation, some ? { ...rest, $secrets: { ...secrets } } : rest)
      return scrubJobSecrets(secrets, outcome)
    },
  }
}
