// "Show me" in a tab: what a person does there, reported as InputEvents (Driver.watchInput).
// Input from a remote viewer is performed by remote-input.ts.
//
// The page half (recorder-script.ts) reports each event with its element kept in the page; here
// the element is looked up in the accessibility tree, so the target's role and name are the ones
// a snapshot gives it. When the element is gone (the click navigated away), the page's own guess
// stands. Events are handed on in the order they happened, navigations included.
import { UI_ROLES, type UiRole } from '../../../protocol/elements.ts'
import type { InputEvent, RecordedTarget } from '../../../protocol/recording.ts'
import { ROLE_MAP } from './ax-roles.ts'
import { collapse } from './ax-tree.ts'
import type { PageTarget } from './page-target.ts'
import { installRecorder, type PageInputEvent } from './recorder-script.ts'

const WORLD = 'deskhook-recorder'
const BINDING = '__deskhookInput'
/** Keys worth a step of their own; text keys and Backspace/Delete show up as the field's value. */
const RECORDED_KEYS = [
  'Enter',
  'Escape',
  'Tab',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'PageUp',
  'PageDown',
  'Home',
  'End',
]
const SOURCE = `(${installRecorder.toString()})(${JSON.stringify(BINDING)}, ${JSON.stringify(ROLE_MAP)}, ${JSON.stringify(RECORDED_KEYS)})`
/** Roles a snapshot names by their accessible name only (never by the text inside). */
const NAMED_ONLY = new Set<UiRole>(['textbox', 'spinbutton', 'slider', 'progressbar', 'image'])
const KINDS = new Set<string>(['click', 'input', 'select', 'check', 'key'])
const RESOLVE_TIMEOUT_MS = 2_000

/** One recorder per tab: a second watchInput on a tab stops the first (its stop then does nothing). */
const recorders = new WeakMap<PageTarget, () => Promise<void>>()

export async function watchPageInput(
  page: PageTarget,
  onEvent: (event: InputEvent) => void,
): Promise<() => Promise<void>> {
  await recorders.get(page)?.()
  const { session } = page
  /** Our world's contexts in the tab's documents, where stop() removes the listeners again. */
  const contexts = new Set<number>()
  /** Form names of the secret fields seen: their values are cut from the URLs of navigations. */
  const secretFields = new Set<string>()
  let queue = Promise.resolve()
  // Each event is looked up as soon as it arrives (before a navigation takes its element away)
  // and handed on after the ones before it.
  const emit = (next: Promise<InputEvent | undefined>) => {
    queue = queue.then(async () => {
      const event = await next.catch(() => undefined)
      try {
        if (event) onEvent(event)
      } catch {
        // The caller's failure must not stop later events.
      }
    })
  }
  const unsubscribe = [
    session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      const raw = name === BINDING ? parsePayload(payload) : undefined
      if (!raw) return
      if (typeof raw.secretField === 'string') secretFields.add(raw.secretField)
      emit(toInputEvent(page, executionContextId, raw))
    }),
    session.on('Page.frameNavigated', ({ frame }) => {
      if (frame.parentId !== undefined) return
      const url = withoutSecrets(frame.url + (frame.urlFragment ?? ''), secretFields)
      emit(Promise.resolve({ kind: 'navigate', url }))
    }),
    session.on('Page.navigatedWithinDocument', ({ frameId, url }) => {
      if (frameId === page.targetId)
        emit(Promise.resolve({ kind: 'navigate', url: withoutSecrets(url, secretFields) }))
    }),
    session.on('Runtime.executionContextCreated', ({ context }) => {
      if (context.name === WORLD) contexts.add(context.id)
    }),
    session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
      contexts.delete(executionContextId)
    }),
    session.on('Runtime.executionContextsCleared', () => contexts.clear()),
  ]
  let script: string | undefined
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= (async () => {
      if (recorders.get(page) === stop) recorders.delete(page)
      for (const off of unsubscribe) off()
      const cleanup = Promise.allSettled([
        session.send('Runtime.removeBinding', { name: BINDING }),
        script && session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: script }),
        ...[...contexts].map((contextId) =>
          session.send('Runtime.evaluate', {
            expression: 'globalThis.__deskhookRecorder?.stop()',
            contextId,
          }),
        ),
      ])
      // A native dialog holds these commands until it closes: do not wait for them then.
      if (!page.dialog) await cleanup
      await queue
    })()
    return stopped
  }
  recorders.set(page, stop)
  try {
    await page.call('Runtime.addBinding', { name: BINDING, executionContextName: WORLD })
    script = (await page.call('Page.addScriptToEvaluateOnNewDocument', { source: SOURCE, worldName: WORLD }))
      .identifier
    // The documents already loaded have not run the script: install it there too.
    const { frameTree } = await page.call('Page.getFrameTree')
    const frames = [frameTree]
    for (const tree of frames) {
      frames.push(...(tree.childFrames ?? []))
      const world = await page
        .call('Page.createIsolatedWorld', { frameId: tree.frame.id, worldName: WORLD })
        .catch(() => undefined)
      if (!world) continue
      contexts.add(world.executionContextId)
      await page.call('Runtime.evaluate', { expression: SOURCE, contextId: world.executionContextId })
    }
  } catch (error) {
    await stop()
    throw error
  }
  return stop
}

function parsePayload(payload: string): PageInputEvent | undefined {
  try {
    const raw = JSON.parse(payload) as PageInputEvent
    return typeof raw.seq === 'number' && KINDS.has(raw.kind) ? raw : undefined
  } catch {
    return undefined
  }
}

/** The URL without the query parameters named like a secret field (a GET form sent its value there). */
function withoutSecrets(url: string, fields: Set<string>): string {
  if (fields.size === 0) return url
  try {
    const parsed = new URL(url)
    const present = [...fields].filter((field) => parsed.searchParams.has(field))
    if (present.length === 0) return url
    for (const field of present) parsed.searchParams.delete(field)
    return parsed.href
  } catch {
    return url
  }
}

async function toInputEvent(page: PageTarget, contextId: number, raw: PageInputEvent): Promise<InputEvent> {
  const event: InputEvent = { kind: raw.kind }
  if (typeof raw.value === 'string') event.value = raw.value
  if (raw.secret === true) event.secret = true
  if (typeof raw.key === 'string') event.key = raw.key
  const guess = raw.target
  if (!guess) return event
  const target: RecordedTarget = {
    role: (UI_ROLES as readonly string[]).includes(guess.role) ? (guess.role as UiRole) : 'generic',
    name: String(guess.name ?? ''),
  }
  if (guess.point) target.point = { x: Number(guess.point.x), y: Number(guess.point.y) }
  if (guess.automationId) target.automationId = guess.automationId
  if (guess.inputType) target.inputType = guess.inputType
  if (guess.placeholder) target.placeholder = guess.placeholder
  const known = await accessibleRoleAndName(page, contextId, raw.seq).catch(() => undefined)
  if (known) {
    target.role = known.role
    // A snapshot names other roles by their text when the accessibility tree gives no name.
    target.name = known.name || (NAMED_ONLY.has(known.role) ? '' : target.name)
  }
  event.target = target
  return event
}

/** The role and name the snapshot gives the event's element, while it is still in the page. */
async function accessibleRoleAndName(
  page: PageTarget,
  contextId: number,
  seq: number,
): Promise<{ role: UiRole; name: string } | undefined> {
  const { result } = await page.call(
    'Runtime.evaluate',
    { expression: `globalThis.__deskhookRecorder?.take(${seq})`, contextId },
    RESOLVE_TIMEOUT_MS,
  )
  const { objectId } = result
  if (!objectId) return undefined
  try {
    const { node } = await page.call('DOM.describeNode', { objectId }, RESOLVE_TIMEOUT_MS)
    const { backendNodeId } = node
    const { nodes } = await page.call(
      'Accessibility.getPartialAXTree',
      { backendNodeId, fetchRelatives: false },
      RESOLVE_TIMEOUT_MS,
    )
    const ax = nodes.find((candidate) => candidate.backendDOMNodeId === backendNodeId)
    const role = ax && !ax.ignored ? ROLE_MAP[String(ax.role?.value ?? '')] : undefined
    return role ? { role, name: collapse(String(ax?.name?.value ?? '')) } : undefined
  } finally {
    page.session.send('Runtime.releaseObject', { objectId }).catch(() => {})
  }
}
