import type { AppContext } from '../../context.ts'
import { getJob } from '../../modules/jobs/service.ts'
import { jobSecretNames, jobSecretValues } from '../../modules/secrets/service.ts'

/**
 * A build's view of its job's secrets, kept current while it runs: `secrets` and `names` are the
 * very objects the BuildRequest carries (`secrets`, `secretNames`), updated in place whenever the
 * job changes (`jobs secret set` here, or from the CLI), so a builder that reads them when it meets
 * a sign-in form sees a secret set while it waited. Every value ever seen is added to the
 * masking, so nothing the build writes shows one, also after it was replaced.
 */
export function liveJobSecrets(ctx: AppContext, jobId: string) {
  const secrets: Record<string, string> = {}
  const names: string[] = []
  const masks: Record<string, string>[] = []
  const refresh = () => {
    let current: Readonly<Record<string, string>>
    try {
      current = jobSecretValues(ctx, jobId)
    } catch {
      return // undecryptable: the build keeps what it had (it fails at sign-in, saying why)
    }
    for (const name of Object.keys(secrets)) if (!(name in current)) delete secrets[name]
    Object.assign(secrets, current)
    names.splice(0, names.length, ...Object.keys(current).sort())
    for (const masking of masks)
      for (const [name, value] of Object.entries(current)) masking[`$secret:${name}:${value}`] = value
  }
  refresh()
  // jobSecretValues drops its cache on these same events, registered before (at its first use).
  const onJob = (id: string) => id === jobId && refresh()
  ctx.events.on('jobs.changed', onJob)
  ctx.events.on('db.external-change', refresh)
  return {
    secrets,
    names,
    /** Adds the values (now and later ones) to a build's masking record. */
    maskInto(masking: Record<string, string>) {
      masks.push(masking)
      refresh()
    },
    stop() {
      ctx.events.off('jobs.changed', onJob)
      ctx.events.off('db.external-change', refresh)
    },
  }
}

/**
 * The progress line of a build whose job names secrets (`deskhook.secrets`) that are not set yet,
 * or null when it may start.
 */
export function missingSecrets(ctx: AppContext, jobId: string): string | null {
  const job = getJob(ctx, jobId)
  if (!job?.neededSecrets.length) return null
  const set = new Set(jobSecretNames(ctx, jobId))
  const missing = job.neededSecrets.filter((n) => !set.has(n))
  if (missing.length === 0) return null
  return (
    `Waiting for the job's secret${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: set ` +
    `${missing.length > 1 ? 'them' : 'it'} with \`deskhook jobs secret set ${job.method} ${job.path} ${missing[0]}\`` +
    `${missing.length > 1 ? ' (and likewise the others)' : ''}; the build starts as soon as they are set`
  )
}
