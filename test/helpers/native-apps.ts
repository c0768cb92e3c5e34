// Real desktop apps from Debian's packages that the native tests teach, each with its own home
// folder: it starts from a clean state (no earlier test's records, no welcome screens) and keeps
// its data across launches there, as on a person's desktop. The agent (or driver) that starts
// the app is given `env`, so the app it launches reads and writes only this home.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { AppSpec } from '../../src/protocol/automation.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from './agent-process.ts'
import { tempDir } from './temp-dir.ts'
import { startTestServer, type TestServer } from './test-server.ts'

/** A person's home folder for apps: HOME and the XDG folders point into it. */
export interface AppHome {
  path: string
  env: Record<string, string>
  remove(): void
}

export interface NativeApp {
  /** The app spec a run starts it with (what `launch` gets). */
  spec: AppSpec
  /** HOME and the XDG folders, pointing into the app's home. */
  env: Record<string, string>
  home: string
  /** The file the app keeps its records in. */
  dataFile: string
  remove(): void
}

export function appHome(prefix = 'deskhook-home-'): AppHome {
  const dir = tempDir(prefix)
  const env = {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, '.config'),
    XDG_DATA_HOME: join(dir.path, '.local/share'),
    XDG_CACHE_HOME: join(dir.path, '.cache'),
  }
  for (const path of Object.values(env)) mkdirSync(path, { recursive: true })
  return { path: dir.path, env, remove: dir.remove }
}

/**
 * Osmo, a personal organizer (contacts, tasks, notes): GTK 3. It keeps its records in XML files
 * under $XDG_DATA_HOME/osmo and writes them when it quits, also on SIGTERM (its fresh launch).
 */
export function osmoApp(home: AppHome = appHome('deskhook-osmo-')): NativeApp {
  return {
    spec: { executable: 'osmo' },
    env: home.env,
    home: home.path,
    dataFile: join(home.env.XDG_DATA_HOME!, 'osmo', 'contacts_records.xml'),
    remove: home.remove,
  }
}

/** The contacts Osmo has written to its data file: first and last names. */
export function osmoContacts(app: NativeApp): { firstName: string; lastName: string }[] {
  if (!existsSync(app.dataFile)) return []
  const xml = readFileSync(app.dataFile, 'utf8')
  return [...xml.matchAll(/<record>([\s\S]*?)<\/record>/g)].map(([, record]) => ({
    firstName: /<first_name>([^<]*)<\/first_name>/.exec(record!)?.[1] ?? '',
    lastName: /<last_name>([^<]*)<\/last_name>/.exec(record!)?.[1] ?? '',
  }))
}

/** A household's HomeBank file: one checking account, a payee and a category. */
const HOUSEHOLD = `<?xml version="1.0"?>
<homebank v="1.4" d="050602">
<properties title="Household" curr="1" auto_smode="1" auto_weekday="1" auto_nbdays="0"/>
<cur key="1" flags="0" iso="EUR" name="Euro" symb="€" syprf="0" dchar="," gchar=" " frac="2" rate="0" mdate="0"/>
<account key="1" pos="1" type="1" curr="1" name="Checking" initial="100" minimum="0" maximum="0"/>
<pay key="1" name="Grocery Store"/>
<cat key="1" name="Food"/>
</homebank>
`

/**
 * HomeBank, personal finance: GTK 3. Opens the household file given on its command line; its
 * preferences skip the welcome dialog. Its records change in memory until the file is saved.
 */
export function homebankApp(home: AppHome = appHome('deskhook-homebank-')): NativeApp {
  const prefs = join(home.env.XDG_CONFIG_HOME!, 'homebank')
  mkdirSync(prefs, { recursive: true })
  writeFileSync(
    join(prefs, 'preferences'),
    '[General]\nShowSplash=false\nShowWelcome=false\nLoadLast=false\n',
  )
  const dataFile = join(home.path, 'household.xhb')
  writeFileSync(dataFile, HOUSEHOLD)
  return {
    spec: { executable: 'homebank', args: [dataFile] },
    env: home.env,
    home: home.path,
    dataFile,
    remove: home.remove,
  }
}

/**
 * The real server and a real `deskhook agent --driver desktop` on the test desktop, with a
 * person's home for the apps, the given apps open: what the native end-to-end tests start from.
 */
export interface NativeRig {
  server: TestServer
  agent: AgentProcess
  desktopId: string
  home: AppHome
  stop(): Promise<void>
}

export async function startNativeRig(
  desktop: { vars: Record<string, string> },
  open: (home: AppHome) => NativeApp[],
): Promise<NativeRig> {
  const home = appHome()
  const apps = open(home)
  const server = await startTestServer({ watchIntervalMs: 20 })
  const agent = startAgent({
    server: server.url,
    token: createEnrollmentToken(server.ctx).token,
    name: 'linux-desk',
    driver: 'desktop',
    // The apps the agent starts live in this home: a clean start, data kept across launches.
    env: { ...desktop.vars, ...home.env },
  })
  const desktopId = String((await agent.waitForLog((l) => l.msg === 'online', 30_000)).desktopId)
  for (const app of apps) await server.hub.rpc<WindowInfo>(desktopId, 'launch', [app.spec], 60_000)
  return {
    server,
    agent,
    desktopId,
    home,
    async stop() {
      await agent.cleanup()
      await server.close()
      home.remove()
    },
  }
}
