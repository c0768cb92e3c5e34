// Teaching a job end to end over HTTP only is shared with the gauntlet (test/gauntlet/run-job.ts):
// teaching call(s), build polling, the owner's answers, promotion with the CLI, two live calls.
export { type JobOutcome, row, runJob } from '../gauntlet/run-job.ts'
