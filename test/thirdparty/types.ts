// A third-party app the builder is judged on (bench/builder-split.md): each lives in
// test/thirdparty/<name>/index.ts and exports `app` of this shape.
import type { GauntletJob, RunningApp } from '../gauntlet/types.ts'

export interface ThirdPartyApp<A extends RunningApp = RunningApp> {
  /** The name used in bench/builder-split.md. */
  name: string
  /** What kind of app it is, in a few words ("issue tracker", "webmail"). */
  kind: string
  start(): Promise<A>
  jobs: GauntletJob<A>[]
}
