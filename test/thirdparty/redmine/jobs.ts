// Jobs a team would want from its Redmine, in the caller's words ("file an issue", "its number"),
// each checked in Redmine's own database. Redmine asks for a sign-in first: every job carries the
// admin's username and password as secrets.
import type { Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, ShowHow } from '../../gauntlet/types.ts'
import { REDMINE_PASSWORD, REDMINE_USER, type Redmine } from './app.ts'

const secrets = { username: REDMINE_USER, password: REDMINE_PASSWORD }

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value

/**
 * What the owner would say, by kind: which button sends the form (the job's own button first, then
 * the sign-in form's), and which of the page's values are the ones the caller asked for.
 */
function owner(submit: RegExp, outputs?: RegExp, shown?: ShowHow) {
  return (q: Question): string | string[] | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return shown
    if (q.kind === 'choose_submit') return option(q, submit) ?? option(q, /^(log ?in|sign ?in)$/i)
    if (q.kind === 'choose_outputs' && outputs) {
      const picked = q.options.filter((o) => outputs.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    return undefined
  }
}

/** Create an issue and return its number. */
export const fileIssue: GauntletJob<Redmine> = {
  app: 'redmine',
  name: 'file an issue, return its number',
  method: 'POST',
  path: '/issues',
  prompt:
    'File a new issue in the given project with this subject and description, and return the issue number',
  secrets,
  samples: () => [
    {
      input: {
        project: 'Website',
        subject: 'Contact form rejects plus signs in email',
        description: 'Typing a+b@example.com shows "invalid email".',
      },
      expect: { issueNumber: { $type: 'string' } },
    },
  ],
  // The new-issue form sends with Create or "Create and continue": the owner means Create.
  answer: owner(/^create$/i, undefined, {
    show: [
      { click: (e) => e.role === 'link' && e.name === 'Projects' },
      { click: (e) => e.role === 'link' && e.name === 'Website' },
      { click: (e) => e.role === 'link' && e.name === '+' },
      { click: (e) => e.role === 'link' && /new issue/i.test(e.name) },
      {
        type: 'Contact form rejects plus signs in email',
        into: (e) => e.role === 'textbox' && /^subject/i.test(e.name),
      },
      {
        type: 'Typing a+b@example.com shows "invalid email".',
        into: (e) => e.role === 'textbox' && /^description/i.test(e.name),
      },
      { click: (e) => e.role === 'button' && e.name === 'Create' },
    ],
  }),
  live: (redmine) =>
    [
      ['Footer links point to the old domain', 'The privacy link still goes to old-site.example.'],
      ['Pricing page table overflows on phones', 'Seen on a 375px wide screen.'],
    ].map(([subject, description]) => ({
      input: { project: 'Website', subject, description },
      check: (r) => filedOnce(redmine, r, subject!, description!),
    })),
}

function filedOnce(
  redmine: Redmine,
  result: Record<string, unknown>,
  subject: string,
  description: string,
): string | undefined {
  const found = redmine.issues().filter((i) => i.subject === subject)
  if (found.length !== 1) return `${found.length} issues with subject “${subject}”, expected exactly 1`
  const issue = found[0]!
  if (issue.project !== 'website') return `the issue was filed in project ${issue.project}`
  if (issue.description.trim() !== description)
    return `the issue's description is ${JSON.stringify(issue.description)}, expected ${JSON.stringify(description)}`
  // "#12", "12" or "Bug #12" all name issue 12; exactly one number, and it must be this issue's.
  const numbers = String(result.issueNumber ?? '').match(/\d+/g) ?? []
  if (numbers.length !== 1 || Number(numbers[0]) !== issue.id)
    return `issueNumber ${JSON.stringify(result.issueNumber)} is not the new issue's number ${issue.id}`
  return undefined
}

/** Look an issue up by its number (a path parameter) and return its subject and status. */
export const issueByNumber: GauntletJob<Redmine> = {
  app: 'redmine',
  name: 'look up an issue by number',
  method: 'GET',
  path: '/issues/:number',
  prompt: 'Look up the issue with this number and return its subject and status',
  secrets,
  samples: (redmine) => {
    const [number] = redmine.addIssues([
      { subject: 'Newsletter signup sends two emails', description: 'Twice since Monday.' },
    ])
    return [
      {
        input: { number: String(number) },
        expect: { subject: 'Newsletter signup sends two emails', status: 'New' },
      },
    ]
  },
  answer: owner(/^(apply|search|go)$/i, /subject|status|title/i),
  live: (redmine) => {
    const wanted: [string, string][] = [
      ['Search box ignores accented letters', 'In Progress'],
      ['Blog images load slowly', 'Feedback'],
    ]
    const ids = redmine.addIssues(wanted.map(([subject, status]) => ({ subject, status })))
    return wanted.map(([subject, status], i) => ({
      input: { number: String(ids[i]) },
      check: (r) =>
        r.subject === subject && r.status === status
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected subject “${subject}” and status ${status}`,
    }))
  },
}

/** Search the issues for a word and return the matching subjects as a list. */
export const searchIssues: GauntletJob<Redmine> = {
  app: 'redmine',
  name: 'search issues, return a list',
  method: 'GET',
  path: '/issues',
  prompt: 'Search the issues for a word and return the list of matching issue subjects',
  secrets,
  samples: (redmine) => {
    redmine.addIssues([
      { subject: 'Invoice PDF shows the wrong total' },
      { subject: 'Invoice emails land in spam' },
      { subject: 'Holiday banner still shows in March' },
      { subject: 'Printer icon missing on the receipt page' },
      { subject: 'Login page is slow on Mondays' },
    ])
    return [{ input: { query: 'invoice' }, expect: { subjects: { $type: 'array' } } }]
  },
  answer: owner(/^(search|submit|apply|go)$/i, /subject|title/i),
  live: () => [
    {
      input: { query: 'holiday' },
      check: (r) => listHas(r, ['Holiday banner still shows in March'], ['Invoice', 'Printer', 'Login']),
    },
    {
      input: { query: 'printer' },
      check: (r) => listHas(r, ['Printer icon missing on the receipt page'], ['Invoice', 'Holiday', 'Login']),
    },
  ],
}

export const redmineJobs = [fileIssue, issueByNumber, searchIssues]

function listHas(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const missing = want.filter((w) => !text.includes(w.toLowerCase()))
  const extra = not.filter((w) => text.includes(w.toLowerCase()))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  return undefined
}
