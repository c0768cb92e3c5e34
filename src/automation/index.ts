// The automation runner and its pure helpers, shared by the agent (live runs) and the builder
// (verification runs and selector design).
export { type ConditionResult, evaluateCondition, openDialogs } from './conditions.ts'
export { parseIsoDate } from './date-filters.ts'
export { formatPath, indexTree, pathTo } from './element-tree.ts'
export { RowsError, readRows } from './read-rows.ts'
export type { RunHooks, RunOptions, RunResult, StepResult, StepStarted } from './run-types.ts'
export { runAutomation } from './runner.ts'
export {
  describeCandidates,
  describeSelector,
  findMatches,
  type Resolution,
  renderSelector,
  resolveSelector,
} from './selectors.ts'
export {
  lookupPath,
  renderTemplate,
  resolveTemplate,
  TemplateError,
  type TemplateScope,
  templatePaths,
} from './templates.ts'
export { foldText, foldWord, mapWord } from './text-match.ts'
export { describeWindowSpec, matchWindows, type WindowSpec } from './window-match.ts'
