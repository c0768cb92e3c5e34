import type { DesktopPort } from '../../builder/contract.ts'
import type { UiElement } from '../../protocol/elements.ts'

/** The sample's input leaves as dotted paths with their text (`_http` and `$secrets` left out). */
function leaves(input: Record<string, unknown>): [path: string, text: string][] {
  const out: [string, string][] = []
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string' || typeof value === 'number') out.push([path, String(value)])
    else if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k)
  }
  for (const [k, v] of Object.entries(input)) if (k !== '_http' && k !== '$secrets') walk(v, k)
  return out
}

/**
 * The builder's desktop, noting the input members it types into password fields: those become the
 * job's secret inputs when the build is saved. Each such value is also added to `masking` at once,
 * so nothing the build writes from then on shows it.
 */
export function watchSecretFills(
  port: DesktopPort,
  input: Record<string, unknown>,
  masking: Record<string, string>,
): { port: DesktopPort; found: () => string[] } {
  const passwordRefs = new Map<string, Set<string>>()
  const found = new Set<string>()
  const sampleLeaves = leaves(input)
  return {
    found: () => [...found],
    port: {
      ...port,
      name: port.name,
      async snapshot(windowId) {
        const snapshot = await port.snapshot(windowId)
        const refs = new Set<string>()
        const visit = (e: UiElement) => {
          if (e.inputType === 'password') refs.add(e.ref)
          for (const c of e.children) visit(c)
        }
        visit(snapshot.root)
        passwordRefs.set(windowId, refs)
        return snapshot
      },
      async act(windowId, action) {
        if (action.kind === 'fill' && action.value !== '' && passwordRefs.get(windowId)?.has(action.ref)) {
          for (const [path, text] of sampleLeaves)
            if (text === action.value) {
              found.add(path)
              masking[`$input:${path}`] = text
            }
        }
        return port.act(windowId, action)
      },
    },
  }
}
