import { userInfo } from 'node:os'
import type { AuditActorKind } from '../../db/schema/index.ts'

/** Who did something: a person (their email), an API key (prefix and name), the CLI (OS user). */
export interface Actor {
  kind: AuditActorKind
  id: string
  label: string
}

/** Changes deskhook makes on its own (the first key of a new installation). */
export const SYSTEM_ACTOR: Actor = { kind: 'system', id: 'deskhook', label: 'deskhook' }

/** The retention task, removing audit rows past `--audit-days` (`audit.pruned`). */
export const RETENTION_ACTOR: Actor = { kind: 'system', id: 'retention', label: 'deskhook retention' }

/** The scheduler, handing runs of live calls to desktops (`execution.dispatched`). */
export const SCHEDULER_ACTOR: Actor = { kind: 'system', id: 'scheduler', label: 'deskhook scheduler' }

export const userActor = (user: { id: string; email: string }): Actor => ({
  kind: 'user',
  id: user.id,
  label: user.email,
})

/** A key by its display prefix and name: enough to find it in `keys list`, never the key. */
export const keyActor = (key: { id: string; name: string; prefix?: string }): Actor => ({
  kind: 'key',
  id: key.id,
  label: key.prefix ? `${key.prefix}… (${key.name})` : key.name,
})

export const agentActor = (desktop: { id: string; name: string }): Actor => ({
  kind: 'agent',
  id: desktop.id,
  label: desktop.name,
})

/** A one-shot command: whoever runs it on the server, as the OS knows them. */
export function cliActor(): Actor {
  let name: string
  try {
    name = userInfo().username
  } catch {
    // No passwd entry (some containers): the environment is the best left.
    name = process.env.USER ?? process.env.USERNAME ?? `uid ${process.getuid?.() ?? '?'}`
  }
  return { kind: 'cli', id: name, label: `cli:${name}` }
}
