import { AppError } from '../../lib/errors.ts'
import { explainProblems } from '../../lib/explain-schema.ts'
import { Automation, Condition, parseAutomation } from '../../protocol/automation.ts'
import { EXPECT_TYPES } from '../teach/model.ts'
import { JOB_FILE_FORMAT, type JobFile, JobFileShape } from './job-file.ts'
import { parsePattern } from './path-pattern.ts'
import { JOB_METHODS } from './router.ts'

/**
 * Checks an untrusted job file completely before anything is written, and reports every problem
 * at once, each with its JSON path: a file is usually fixed by hand, and one error per attempt
 * makes that slow. Returns the file with its method upper-cased and its path normalised.
 */
export function checkJobFile(data: unknown): JobFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw invalid([
      `the file must hold a JSON object with "format": "${JOB_FILE_FORMAT}", got ${Array.isArray(data) ? 'an array' : JSON.stringify(data)}`,
    ])
  const doc = data as Record<string, unknown>
  const problems = explainProblems(JobFileShape, doc, '')
  const method = typeof doc.method === 'string' ? doc.method.toUpperCase() : undefined
  if (method && !(JOB_METHODS as readonly string[]).includes(method))
    problems.push(`method: must be one of ${JOB_METHODS.join(', ')}, got ${JSON.stringify(doc.method)}`)
  let path = doc.path
  if (typeof path === 'string' && path !== '') {
    try {
      path = parsePattern(path, 'path').pattern
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      problems.push(`path: ${err.message}`)
    }
  }
  if ('automation' in doc) problems.push(...automationProblems(doc.automation))
  if (Array.isArray(doc.samples))
    for (const [i, sample] of doc.samples.entries())
      if (typeof sample === 'object' && sample !== null)
        expectProblems((sample as { expect?: unknown }).expect, `samples.${i}.expect`, problems)
  if (problems.length) throw invalid(problems)
  return { ...doc, method, path } as JobFile
}

function invalid(problems: string[]): AppError {
  const list = problems.map((p) => `  - ${p}`).join('\n')
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
  return new AppError('INVALID_REQUEST', `Not a valid deskhook job file (${count}):\n${list}`, { problems })
}

/** The runner's own parser decides; the explanation only makes its verdict readable. */
function automationProblems(automation: unknown): string[] {
  const parsed = parseAutomation(automation)
  if (parsed.ok) return []
  const explained = explainProblems(Automation, automation, 'automation', [Condition])
  return explained.length ? explained : parsed.errors.map((e) => `automation: ${e}`)
}

/** `{"$type": …}` placeholders must name a JSON type, as in a teaching call's `expect`. */
function expectProblems(value: unknown, at: string, problems: string[]): void {
  if (typeof value !== 'object' || value === null) return
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) expectProblems(v, `${at}.${i}`, problems)
    return
  }
  const $type = (value as { $type?: unknown }).$type
  if ($type !== undefined && !(EXPECT_TYPES as readonly unknown[]).includes($type))
    problems.push(`${at}.$type: must be one of ${EXPECT_TYPES.join(', ')}, got ${JSON.stringify($type)}`)
  for (const [k, v] of Object.entries(value)) if (k !== '$type') expectProblems(v, `${at}.${k}`, problems)
}
