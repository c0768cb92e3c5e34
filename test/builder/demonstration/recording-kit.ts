// Recordings for the "show me" tests, made the way the agent's recorder makes them: each action
// names the screen it was made on (an index into the snapshots) and its element as the driver
// reports it (role, name, the centre of its bounds, automationId, input type).
import type { Snapshot, UiElement, UiRole } from '../../../src/protocol/elements.ts'
import type {
  InputEvent,
  RecordedAction,
  RecordedTarget,
  Recording,
} from '../../../src/protocol/recording.ts'
import { all } from '../../automation/recorded.ts'

/** The element of a snapshot the way a recorder reports it; `name` may be a predicate for unnamed ones. */
export function targetIn(
  snapshot: Snapshot,
  role: UiRole,
  name: string | ((e: UiElement) => boolean),
): RecordedTarget {
  const found = all(snapshot.root).filter(
    (e) => e.role === role && (typeof name === 'string' ? e.name === name : name(e)),
  )
  if (found.length !== 1)
    throw new Error(
      `expected one ${role} “${String(name)}” on “${snapshot.window.title}”, found ${found.length}`,
    )
  const e = found[0]!
  return {
    role: e.role,
    name: e.name,
    ...(e.bounds
      ? { point: { x: e.bounds.x + e.bounds.width / 2, y: e.bounds.y + e.bounds.height / 2 } }
      : {}),
    ...(e.automationId ? { automationId: e.automationId } : {}),
    ...(e.inputType ? { inputType: e.inputType } : {}),
    ...(e.placeholder ? { placeholder: e.placeholder } : {}),
  }
}

type Where = string | ((e: UiElement) => boolean)

/** Builds a recording action by action; `on` is the index of the screen each is made on. */
export class RecordingKit {
  readonly actions: RecordedAction[] = []
  private clock = 0

  constructor(readonly snapshots: Snapshot[]) {}

  private add(on: number, event: InputEvent, gapMs = 2_000): this {
    this.clock += gapMs
    this.actions.push({ ...event, seq: this.actions.length + 1, atMs: this.clock, before: on })
    return this
  }

  click(on: number, role: UiRole, name: Where): this {
    return this.add(on, { kind: 'click', target: targetIn(this.snapshots[on]!, role, name) })
  }

  /**
   * A click on a control of screen `seen` that the recorder reports as made on the earlier screen
   * `on`: a person quicker than the recorder, clicking in a menu before its screen was read.
   */
  clickAhead(on: number, seen: number, role: UiRole, name: Where): this {
    return this.add(on, { kind: 'click', target: targetIn(this.snapshots[seen]!, role, name) })
  }

  /**
   * A click the recorder reports by the node clicked, whose role the screen does not give it (a
   * text inside a cell, where the screen names only the cell): `as` is the role reported.
   */
  clickAs(on: number, role: UiRole, name: Where, as: UiRole): this {
    return this.add(on, { kind: 'click', target: { ...targetIn(this.snapshots[on]!, role, name), role: as } })
  }

  /** Typing gives one event per change: each value in turn, the last one what the field ends with. */
  type(on: number, role: UiRole, name: Where, ...values: string[]): this {
    const target = targetIn(this.snapshots[on]!, role, name)
    for (const value of values) this.add(on, { kind: 'input', target, value }, 300)
    return this
  }

  /** A password box: the recorder reports that it changed, never what it holds. */
  typeSecret(on: number, role: UiRole, name: Where, leaked?: string): this {
    const target = targetIn(this.snapshots[on]!, role, name)
    return this.add(on, { kind: 'input', target, secret: true, ...(leaked ? { value: leaked } : {}) })
  }

  choose(on: number, role: UiRole, name: Where, option: string): this {
    return this.add(on, { kind: 'select', target: targetIn(this.snapshots[on]!, role, name), value: option })
  }

  check(on: number, role: UiRole, name: Where, checked: boolean): this {
    return this.add(on, {
      kind: 'check',
      target: targetIn(this.snapshots[on]!, role, name),
      value: String(checked),
    })
  }

  key(on: number, key: string, role?: UiRole, name?: Where): this {
    const target = role && name !== undefined ? targetIn(this.snapshots[on]!, role, name) : undefined
    return this.add(on, { kind: 'key', key, ...(target ? { target } : {}) })
  }

  /** An address typed into the address bar (well after the last click: not that click's doing). */
  navigate(on: number, url: string, gapMs = 6_000): this {
    return this.add(on, { kind: 'navigate', url }, gapMs)
  }

  recording(): Recording {
    return {
      window: this.snapshots[0]!.window,
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:01:00.000Z',
      actions: this.actions,
      snapshots: this.snapshots,
    }
  }
}
