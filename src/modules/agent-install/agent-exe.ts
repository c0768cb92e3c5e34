import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { AppContext } from '../../context.ts'
import { isCompiled } from '../../lib/compiled.ts'

export const AGENT_EXE_NAME = 'deskhook.exe'

/** How the admin makes the agent's program; named in every "not here" answer. */
export const AGENT_BUILD_COMMAND = 'bun run build'

/** The agent's program as the server serves it. */
export interface AgentExe {
  path: string
  size: number
  sha256: string
}

/**
 * Where the server looks for the agent, in order: beside the server's own program (where
 * `bun run build` puts both), then in the data dir (where an admin who installed only the server
 * binary puts it). Run from source, the server has no program of its own to sit beside.
 */
export function agentExePlaces(ctx: Pick<AppContext, 'config'>): string[] {
  const places = isCompiled() ? [join(dirname(process.execPath), AGENT_EXE_NAME)] : []
  places.push(join(ctx.config.dataDir, 'agent', AGENT_EXE_NAME))
  return places
}

/**
 * What to do when the program is missing: how to build it and where to put it. The places are
 * spelled out for the dashboard's admins; a PC, which anyone may make ask, gets them in general.
 */
export function agentExeMissing(ctx: Pick<AppContext, 'config'>, opts: { exactPlaces: boolean }): string {
  const places = opts.exactPlaces
    ? agentExePlaces(ctx).map((place, i) => `  ${i ? 'or ' : ''}${place}`)
    : [
        `  beside the deskhook server's program, or at agent/${AGENT_EXE_NAME} in its data dir`,
        '  (the Desktops page of the dashboard names the exact places)',
      ]
  return [
    `The deskhook agent for Windows (${AGENT_EXE_NAME}) is not on this server.`,
    `Build it with \`${AGENT_BUILD_COMMAND}\` (it writes dist/${AGENT_EXE_NAME}) and put it`,
    ...places,
    'then run the command on the PC again.',
  ].join('\n')
}

// Hashing a ~100 MB program takes a moment: remember each file's hash until the file changes.
const hashes = new Map<string, { stamp: string; sha256: string }>()

/** The agent's program, or null when none of the places has it. */
export async function findAgentExe(ctx: Pick<AppContext, 'config'>): Promise<AgentExe | null> {
  for (const path of agentExePlaces(ctx)) {
    const info = await stat(path).catch(() => null)
    if (!info?.isFile()) continue
    const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`
    let known = hashes.get(path)
    if (known?.stamp !== stamp) {
      known = { stamp, sha256: await sha256File(path) }
      hashes.set(path, known)
    }
    return { path, size: info.size, sha256: known.sha256 }
  }
  return null
}

async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256')
  const reader = Bun.file(path).stream().getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) hasher.update(read.value)
  return hasher.digest('hex')
}
