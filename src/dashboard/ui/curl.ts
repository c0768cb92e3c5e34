import type { JobView } from '../../modules/jobs/service.ts'

/** Example input for a curl line: the job's latest sample when it has one. */
export function curlExamples(
  job: Pick<JobView, 'method' | 'triggerUrl'>,
  example: unknown,
): { sync: string; async: string } {
  const hasBody = !['GET', 'DELETE', 'HEAD'].includes(job.method)
  const body = hasBody
    ? ` \\\n  -H 'content-type: application/json' \\\n  -d '${JSON.stringify(example ?? {}).replaceAll("'", "'\\''")}'`
    : ''
  const base = `curl -X ${job.method} '${job.triggerUrl}' \\\n  -H "x-api-key: $DESKHOOK_API_KEY"`
  return {
    sync: `${base}${body}`,
    async: `${base} \\\n  -H 'x-job-async: true'${body}`,
  }
}
