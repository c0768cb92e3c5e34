import type { BuildIO, Question } from '../../builder/contract.ts'
import type { AppContext } from '../../context.ts'
import { askQuestion, getBuild, recordProgress } from '../../modules/builds/service.ts'

export class BuildCancelled extends Error {
  override readonly name = 'BuildCancelled'
}

/**
 * The builder's voice: progress goes to the build record; questions are asked on the build and
 * answered over HTTP. A question asked again after a restart (same kind and text) takes the answer
 * already given, so a re-run build never asks twice.
 */
export function buildIO(ctx: AppContext, buildId: string, signal: AbortSignal): BuildIO {
  return {
    progress(stage, message, data) {
      const status = stage === 'verify' ? 'verifying' : 'exploring'
      recordProgress(ctx, buildId, { stage, message, ...(data ? { data } : {}) }, status)
    },
    async ask(question: Question) {
      const given = getBuild(ctx, buildId).answers.find(
        (a) => a.kind === question.kind && a.questionText === question.text,
      )
      if (given) {
        recordProgress(ctx, buildId, {
          stage: 'answer',
          message: `Using the earlier answer to "${question.text}"`,
        })
        return given.answer
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
          reject(new BuildCancelled('the server is stopping'))
        })
      })
    },
  }
}
