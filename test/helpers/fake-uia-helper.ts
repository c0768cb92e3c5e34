// Stands in for the Windows UI Automation helper (src/agent/drivers/windows/helper), which needs
// Windows and cannot run here. A real process speaking the helper protocol (protocol/helper.ts)
// over JSON lines, so the real HelperHost supervises it: it serves the UIA trees of
// test/fixtures/uia/*.json (files as `uia-helper.exe --record-fixture` writes them: one window's
// snapshot each) as windows, acts on them (fill, select, check, click change the served tree) and
// numbers each snapshot's refs `<generation>:<index>`, so a ref from an older snapshot is
// STALE_REF (stricter than the real helper, whose refs are RuntimeIds: the driver contract lets
// a ref live only until the next snapshot). Windows of an elevated process (a fixture with
// `"elevated": true`) are listed but answer ACCESS_DENIED, as UIPI makes the real helper answer.
//
// Test knobs, magic commands sent with HelperHost.request: `fake.fault` makes the next call of
// command `on` hang (no answer ever), crash the helper (it exits mid-call) or fail with `code`;
// `fake.session` puts the Windows session in a state (`locked`, `disconnected`, `secure_desktop`,
// `active`): while it is not active, the commands that need input or the screen (act, launch,
// focus, screenshot, input) answer ACCESS_DENIED with the real helper's reason and sentence
// (helper/Desktop.cs), and `session` reports the state.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import {
  HELPER_COMMANDS,
  HELPER_PROTOCOL_VERSION,
  type HelperNode,
  type HelperWindow,
} from '../../src/protocol/helper.ts'

/** The command line that runs the fake helper (for HelperHost / createWindowsDesktopDriver). */
export const FAKE_UIA_HELPER: readonly string[] = [process.execPath, import.meta.path]
export const FAKE_FAULT_COMMAND = 'fake.fault'
export const FAKE_SESSION_COMMAND = 'fake.session'

/** The real helper's reason for each state (helper/Desktop.cs). */
const SESSION_REASONS: Record<string, string> = {
  locked: 'SESSION_LOCKED',
  disconnected: 'SESSION_DISCONNECTED',
  secure_desktop: 'SECURE_DESKTOP',
}
const NEEDS_DESKTOP = new Set(['act', 'launch', 'focus', 'screenshot', 'input'])

/**
 * Each command's arguments, checked before it runs as the real helper checks them (Args in
 * helper/Channel.cs): a missing or mistyped one is BAD_REQUEST naming it.
 */
const ARGS = Object.fromEntries(
  Object.entries(HELPER_COMMANDS).map(([cmd, { args }]) => [cmd, TypeCompiler.Compile(args)]),
)

function argumentProblem(cmd: string, args: Record<string, unknown>): string | undefined {
  const check = ARGS[cmd]
  if (!check || check.Check(args)) return undefined
  const first = check.Errors(args).First()
  const name = first?.path.split('/')[1]
  return name ? `argument "${name}": ${first!.message}` : (first?.message ?? 'bad arguments')
}

export interface FakeFault {
  /** The command whose next call is hit. */
  on: string
  fault: 'hang' | 'crash' | 'error'
  /** For `error`: the helper error code (ACCESS_DENIED, STALE_REF…) and message. */
  code?: string
  message?: string
}

/** A `--record-fixture` file: what the helper answered for one window. */
interface Recorded {
  snapshot: { window: HelperWindow; root: HelperNode }
  elevated?: boolean
}

interface Served {
  window: HelperWindow
  root: HelperNode
  elevated: boolean
  /** Bumped by every snapshot: refs are `<generation>:<index>`. */
  generation: number
  /** Each node by its index, counted depth-first (the recording's own refs are not used). */
  nodes: Map<number, HelperNode>
  waiters: Set<() => void>
}

class Fail extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly reason?: string,
  ) {
    super(message)
  }
}

/** One pixel, grey: a real JPEG, so callers can check the bytes. */
const JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////' +
  '////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA='

function loadWindows(dir: string): Map<string, Served> {
  const windows = new Map<string, Served>()
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue
    const recorded = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recorded
    const { window, root } = recorded.snapshot
    const nodes = new Map<number, HelperNode>()
    const index = (node: HelperNode) => {
      node.ref = `0:${nodes.size}`
      nodes.set(nodes.size, node)
      node.children.forEach(index)
    }
    index(root)
    windows.set(window.id, {
      window,
      root,
      elevated: recorded.elevated === true,
      generation: 0,
      nodes,
      waiters: new Set(),
    })
  }
  return windows
}

function log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}) {
  process.stderr.write(`${JSON.stringify({ level, msg, ...fields })}\n`)
}

function serve(): void {
  const windows = loadWindows(process.env.FAKE_UIA_FIXTURES ?? join(import.meta.dir, '../fixtures/uia'))
  const faults: FakeFault[] = []
  let session = 'active'
  const sessionMessage = () =>
    session === 'locked'
      ? 'The Windows session is locked: cannot act until someone unlocks it'
      : session === 'disconnected'
        ? 'The Windows session is disconnected: cannot act until someone connects to it again'
        : 'The secure desktop is showing (Winlogon: a UAC prompt or the Ctrl+Alt+Del screen): cannot act until it is answered'
  const watches = new Set<string>()

  const served = (windowId: unknown): Served => {
    const found = windows.get(String(windowId))
    if (!found) throw new Fail('WINDOW_NOT_FOUND', `No window ${String(windowId)}`)
    return found
  }
  const readable = (windowId: unknown): Served => {
    const found = served(windowId)
    if (found.elevated)
      throw new Fail(
        'ACCESS_DENIED',
        `"${found.window.title}" belongs to an elevated process: UI Automation denies a non-elevated agent (UIPI)`,
        'ELEVATED',
      )
    return found
  }
  const changed = (win: Served) => {
    for (const wake of win.waiters) wake()
    win.waiters.clear()
  }

  const commands: Record<string, (args: Record<string, unknown>) => unknown> = {
    hello(args) {
      if (args.protocol !== HELPER_PROTOCOL_VERSION)
        throw new Fail(
          'PROTOCOL_MISMATCH',
          `the helper speaks protocol ${HELPER_PROTOCOL_VERSION}, the agent ${String(args.protocol)}`,
        )
      return {
        protocol: HELPER_PROTOCOL_VERSION,
        backend: 'uia',
        platform: 'win32',
        helperVersion: 'fake-uia-1',
        pid: process.pid,
        runtime: '.NET Framework 4.8 (fake)',
      }
    },
    session: () =>
      session === 'active' ? { state: 'active' } : { state: session, message: sessionMessage() },
    listWindows: () => ({ windows: [...windows.values()].map((w) => w.window) }),
    snapshot(args) {
      const win = readable(args.windowId)
      win.generation++
      // The element budget, as the real helper applies it while walking (helper/Snapshot.cs): the
      // first maxElements nodes depth-first, which are the nodes of the lowest indices.
      const budget = Number(args.maxElements)
      return {
        window: win.window,
        root: numbered(win.root, win.generation, budget),
        truncated: win.nodes.size > budget,
        elementCount: Math.min(win.nodes.size, budget),
        tookMs: 1,
      }
    },
    act(args) {
      const win = readable(args.windowId)
      const action = args.action as { kind: string; ref?: string; [key: string]: unknown }
      const node = action.ref === undefined ? undefined : nodeOf(win, action.ref)
      const result = act(win, node, action)
      changed(win)
      return result
    },
    async waitForChange(args) {
      const win = readable(args.windowId)
      const timeoutMs = Number(args.timeoutMs)
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          resolve({ result: 'changed' })
        }
        const timer = setTimeout(() => {
          win.waiters.delete(wake)
          resolve({ result: 'timeout' })
        }, timeoutMs)
        win.waiters.add(wake)
      })
    },
    screenshot(args) {
      served(args.windowId)
      return { jpeg: JPEG, width: 1, height: 1 }
    },
    focus(args) {
      served(args.windowId)
      return {}
    },
    launch(args) {
      const executable = String(args.executable).split(/[\\/]/).at(-1)!.toLowerCase()
      const found = [...windows.values()].find((w) => w.window.app.toLowerCase() === executable)
      if (!found) throw new Fail('LAUNCH_FAILED', `No window of ${String(args.executable)} appeared`)
      return { window: found.window, pid: found.window.pid }
    },
    close: () => ({ closed: 0, killed: 0 }),
    watchInput(args) {
      readable(args.windowId)
      watches.add(String(args.watch))
      return { watch: args.watch, deviceInput: false, reason: 'the fake helper sees no devices' }
    },
    unwatchInput(args) {
      watches.delete(String(args.watch))
      return {}
    },
    input(args) {
      changed(readable(args.windowId))
      return {}
    },
    [FAKE_FAULT_COMMAND](args) {
      faults.push(args as unknown as FakeFault)
      return {}
    },
    [FAKE_SESSION_COMMAND](args) {
      const state = String(args.state)
      if (state !== 'active' && !SESSION_REASONS[state])
        throw new Fail('BAD_REQUEST', `no session state ${state}`)
      session = state
      return {}
    },
  }

  const answer = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`)
  const handle = async (line: string) => {
    let request: { id?: unknown; cmd?: unknown; args?: unknown }
    try {
      request = JSON.parse(line)
    } catch {
      answer({ id: null, ok: false, error: { code: 'BAD_REQUEST', message: 'not a JSON line' } })
      return
    }
    const id = typeof request?.id === 'string' ? request.id : null
    if (id === null || typeof request.cmd !== 'string') {
      answer({
        id,
        ok: false,
        error: { code: 'BAD_REQUEST', message: 'a request is {"id": string, "cmd": string, "args": object}' },
      })
      return
    }
    const cmd = request.cmd
    const args = request.args ?? {}
    if (typeof args !== 'object' || Array.isArray(args)) {
      answer({ id, ok: false, error: { code: 'BAD_REQUEST', message: 'args must be an object' } })
      return
    }
    const fault = faults.findIndex((f) => f.on === cmd)
    if (fault >= 0) {
      const [hit] = faults.splice(fault, 1)
      if (hit!.fault === 'hang') return log('info', `hanging on ${cmd} as asked`)
      if (hit!.fault === 'crash') {
        log('info', `crashing on ${cmd} as asked`)
        process.stderr.write(
          'Unhandled Exception: System.Runtime.InteropServices.COMException: (0x80040201)\n',
        )
        process.exit(3)
      }
      answer({ id, ok: false, error: { code: hit!.code ?? 'INTERNAL', message: hit!.message ?? 'injected' } })
      return
    }
    // Arguments first, then the session: the real helper reads its arguments before it looks at the desktop.
    const run = commands[cmd]
    if (!run) {
      answer({ id, ok: false, error: { code: 'UNKNOWN_COMMAND', message: `Unknown command "${cmd}"` } })
      return
    }
    const problem = argumentProblem(cmd, args as Record<string, unknown>)
    if (problem) {
      answer({ id, ok: false, error: { code: 'BAD_REQUEST', message: problem } })
      return
    }
    if (session !== 'active' && NEEDS_DESKTOP.has(cmd)) {
      answer({
        id,
        ok: false,
        error: { code: 'ACCESS_DENIED', message: sessionMessage(), reason: SESSION_REASONS[session] },
      })
      return
    }
    try {
      const result = await run(args as Record<string, unknown>)
      answer({ id, ok: true, result })
    } catch (error) {
      const code = error instanceof Fail ? error.code : 'INTERNAL'
      const reason = error instanceof Fail ? error.reason : undefined
      answer({
        id,
        ok: false,
        error: { code, message: (error as Error).message, ...(reason ? { reason } : {}) },
      })
    }
  }

  log('info', 'fake UIA helper ready', { windows: windows.size })
  void (async () => {
    const decoder = new TextDecoder()
    let buffered = ''
    const reader = Bun.stdin.stream().getReader()
    for (;;) {
      const { value: chunk, done } = await reader.read()
      if (done) break
      buffered += decoder.decode(chunk, { stream: true })
      let newline = buffered.indexOf('\n')
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim()
        buffered = buffered.slice(newline + 1)
        // Calls are served concurrently, as the real helper does: a waitForChange never holds up an act.
        if (line) void handle(line)
        newline = buffered.indexOf('\n')
      }
    }
    // stdin closed: the host is done with us.
    process.exit(0)
  })()
}

/**
 * The tree with this generation's refs, nodes of index `budget` and on left out; a password box
 * never shows its value.
 */
function numbered(node: HelperNode, generation: number, budget: number): HelperNode {
  const index = Number(node.ref.split(':')[1])
  const copy: HelperNode = { ...node, ref: `${generation}:${index}` }
  if (node.states.includes('password')) copy.value = ''
  copy.children = node.children
    .filter((child) => Number(child.ref.split(':')[1]) < budget)
    .map((child) => numbered(child, generation, budget))
  return copy
}

function nodeOf(win: Served, ref: string): HelperNode {
  const [generation, index] = ref.split(':').map(Number)
  if (generation !== win.generation)
    throw new Fail('STALE_REF', `Element ${ref} is from an older snapshot of the window: take a new snapshot`)
  const node = win.nodes.get(index!)
  if (!node) throw new Fail('STALE_REF', `Element ${ref} is gone`)
  return node
}

const FILLABLE = new Set(['Edit', 'Document', 'ComboBox', 'Spinner'])

function act(
  win: Served,
  node: HelperNode | undefined,
  action: { kind: string; [key: string]: unknown },
): Record<string, unknown> {
  if (!node) {
    if (action.kind === 'keys') return {}
    throw new Fail('BAD_REQUEST', `${action.kind} needs a ref`)
  }
  if (action.kind !== 'read' && node.states.includes('disabled'))
    throw new Fail('ELEMENT_DISABLED', `"${node.name}" is disabled`)
  switch (action.kind) {
    case 'read':
      return { text: node.name, ...(node.value !== undefined ? { value: node.value } : {}) }
    case 'fill':
      if (!FILLABLE.has(node.role)) throw new Fail('UNSUPPORTED_ACTION', `A ${node.role} takes no text`)
      if (node.states.includes('readonly'))
        throw new Fail('UNSUPPORTED_ACTION', `"${node.name}" is read-only`)
      node.value = String(action.value)
      return {}
    case 'select': {
      const options = descendantsOf(node).filter((n) => n.role === 'ListItem')
      const wanted = (action.values as string[])[0]
      const option = options.find((o) => o.name === wanted)
      if (!option) throw new Fail('OPTION_NOT_FOUND', `"${node.name}" has no option "${wanted}"`)
      for (const o of options) setState(o, 'selected', o === option)
      node.value = option.name
      return { value: option.name }
    }
    case 'check': {
      const state = node.role === 'RadioButton' ? 'selected' : 'checked'
      if (node.role !== 'CheckBox' && node.role !== 'RadioButton')
        throw new Fail('UNSUPPORTED_ACTION', `A ${node.role} cannot be checked`)
      setState(node, state, action.checked === true)
      return { checked: action.checked === true }
    }
    case 'click':
      if (node.role === 'CheckBox') setState(node, 'checked', !node.states.includes('checked'))
      if (node.role === 'TabItem') {
        const parent = [...win.nodes.values()].find((n) => n.children.includes(node))
        for (const tab of parent?.children ?? [])
          if (tab.role === 'TabItem') setState(tab, 'selected', tab === node)
      }
      return {}
    case 'focus':
    case 'keys':
      return {}
    default:
      throw new Fail('BAD_REQUEST', `Unknown action ${action.kind}`)
  }
}

function setState(node: HelperNode, state: string, on: boolean): void {
  node.states = node.states.filter((s) => s !== state)
  if (on) node.states.push(state)
}

function descendantsOf(node: HelperNode): HelperNode[] {
  return node.children.flatMap((child) => [child, ...descendantsOf(child)])
}

if (import.meta.main) serve()
