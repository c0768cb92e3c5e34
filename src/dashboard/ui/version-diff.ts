// What changed between two versions of a job's automation, by step name: the builder names every
// step (the `flowName` of status events), so a name is how a person recognises a step.
import type { Automation } from '../../protocol/automation.ts'

export interface VersionDiff {
  added: string[]
  removed: string[]
  changed: string[]
  scenariosAdded: string[]
  scenariosRemoved: string[]
  /** The app to open, or the outputs of the main path, differ. */
  appChanged: boolean
  outputsChanged: boolean
}

/**
 * Steps keyed by scenario and name; a name used twice in one list gets its occurrence number, so
 * two "Click “OK”" steps are two entries.
 */
function keyedSteps(a: Automation): Map<string, string> {
  const out = new Map<string, string>()
  const add = (where: string | null, steps: Automation['steps']) => {
    const seen = new Map<string, number>()
    for (const step of steps) {
      const n = (seen.get(step.name) ?? 0) + 1
      seen.set(step.name, n)
      const label = `${where ? `${where}: ` : ''}${step.name}${n > 1 ? ` (#${n})` : ''}`
      out.set(label, JSON.stringify(step))
    }
  }
  add(null, a.steps)
  for (const s of a.scenarios) add(s.name, s.steps)
  return out
}

export function diffVersions(before: Automation, after: Automation): VersionDiff {
  const a = keyedSteps(before)
  const b = keyedSteps(after)
  const names = (x: Automation) => new Set(x.scenarios.map((s) => s.name))
  const sa = names(before)
  const sb = names(after)
  return {
    added: [...b.keys()].filter((k) => !a.has(k)),
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)),
    scenariosAdded: [...sb].filter((n) => !sa.has(n)),
    scenariosRemoved: [...sa].filter((n) => !sb.has(n)),
    appChanged: JSON.stringify(before.app) !== JSON.stringify(after.app),
    outputsChanged: JSON.stringify(before.outputs ?? {}) !== JSON.stringify(after.outputs ?? {}),
  }
}

export const isEmptyDiff = (d: VersionDiff) =>
  !d.added.length &&
  !d.removed.length &&
  !d.changed.length &&
  !d.scenariosAdded.length &&
  !d.scenariosRemoved.length &&
  !d.appChanged &&
  !d.outputsChanged
