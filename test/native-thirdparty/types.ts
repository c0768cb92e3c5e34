// A native app the builder is judged on (bench/native-split.md): each lives in
// test/native-thirdparty/<name>/index.ts and exports `app` of this shape. The bench starts one
// headless desktop (scripts/test-desktop.ts), a real server and a real `deskhook agent --driver
// desktop` whose apps live in a home folder of their own, calls `start(home)` to seed that home,
// launches `spec` through the agent, and teaches each job over HTTP (test/gauntlet/run-job.ts).

import type { AppSpec } from '../../src/protocol/automation.ts'
import type { GauntletJob, RunningApp } from '../gauntlet/types.ts'
import type { AppHome } from '../helpers/native-apps.ts'

export interface NativeRunningApp extends RunningApp {
  /** How a person starts the app: the command line (the data file it opens, if any). */
  spec: AppSpec
  /**
   * The files the jobs' effects land in (the app's data files, by path). Every other file in the
   * home must be unchanged after a build or a live call, except those the app rewrites on a plain
   * open and close (the bench measures those first, by opening and closing the app once).
   */
  dataFiles: string[]
  /**
   * Files (paths relative to the home) the app writes by itself whenever a person does what every
   * job does first, with why: a client that stores its session after each sign-in. Not counted as
   * harm; anything else in them still is not allowed elsewhere.
   */
  ownState?: { path: RegExp; why: string }[]
  /** Processes the app leaves running besides its window (a local server it needs), stopped by `stop`. */
  stop(): Promise<void>
}

export interface NativeThirdPartyApp<A extends NativeRunningApp = NativeRunningApp> {
  /** The name used in bench/native-split.md. */
  name: string
  /** What kind of app it is, in a few words, and its toolkit. */
  kind: string
  /**
   * Seeds the home as a person who has used the app before would have it (its data file, its
   * first-run wizard done), starts what the app needs besides itself (a local server), and
   * returns the app. The app itself is not launched here: the bench launches `spec`.
   */
  start(home: AppHome): Promise<A>
  jobs: GauntletJob<A>[]
}
