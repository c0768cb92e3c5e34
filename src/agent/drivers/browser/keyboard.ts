// Key chords as real keyboard events. `keys` is a sequence of chords separated by spaces; a chord
// is modifiers and one key joined with "+": "Tab Tab Enter", "Control+A Delete", "Shift+Tab".
import { DriverError } from '../../../protocol/driver.ts'
import type { PageTarget } from './page-target.ts'

interface KeyDefinition {
  key: string
  code: string
  keyCode: number
  text?: string
}

const NAMED_KEYS: Record<string, KeyDefinition> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
}
for (let n = 1; n <= 12; n++) NAMED_KEYS[`F${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n }

// CDP modifier bits.
const MODIFIERS: Record<string, { bit: number; definition: KeyDefinition }> = {
  Alt: { bit: 1, definition: { key: 'Alt', code: 'AltLeft', keyCode: 18 } },
  Control: { bit: 2, definition: { key: 'Control', code: 'ControlLeft', keyCode: 17 } },
  Meta: { bit: 4, definition: { key: 'Meta', code: 'MetaLeft', keyCode: 91 } },
  Shift: { bit: 8, definition: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 } },
}
const MODIFIER_ALIASES: Record<string, string> = { Ctrl: 'Control', Cmd: 'Meta', Option: 'Alt' }
const KEY_ALIASES: Record<string, string> = {
  Esc: 'Escape',
  Return: 'Enter',
  Del: 'Delete',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
}

export interface Chord {
  modifiers: string[]
  key: KeyDefinition
}

export function parseKeys(keys: string): Chord[] {
  const chords = keys.trim().split(/\s+/).filter(Boolean)
  if (chords.length === 0) throw new DriverError('UNSUPPORTED_ACTION', 'No keys given')
  return chords.map((chord) => {
    // "+" alone or at the end is the plus key itself.
    const parts =
      chord.length > 1 && chord.endsWith('+') ? [...chord.slice(0, -2).split('+'), '+'] : chord.split('+')
    const last = parts.pop() ?? ''
    const modifiers = parts.map((part) => {
      const name = MODIFIER_ALIASES[part] ?? part
      if (!MODIFIERS[name])
        throw new DriverError('UNSUPPORTED_ACTION', `Unknown modifier "${part}" in "${chord}"`)
      return name
    })
    return { modifiers, key: keyDefinition(last, chord) }
  })
}

function keyDefinition(name: string, chord: string): KeyDefinition {
  const named = NAMED_KEYS[KEY_ALIASES[name] ?? name]
  if (named) return named
  if ([...name].length !== 1)
    throw new DriverError('UNSUPPORTED_ACTION', `Unknown key "${name}" in "${chord}"`)
  const upper = name.toUpperCase()
  if (/[A-Z]/.test(upper)) return { key: name, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: name }
  if (/[0-9]/.test(name)) return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name }
  return { key: name, code: '', keyCode: 0, text: name }
}

/** Presses each chord in turn: modifiers down, key down/up, modifiers up. */
export async function pressKeys(page: PageTarget, keys: string): Promise<void> {
  for (const chord of parseKeys(keys)) {
    let mask = 0
    for (const name of chord.modifiers) {
      const modifier = MODIFIERS[name]!
      mask |= modifier.bit
      await dispatch(page, 'rawKeyDown', modifier.definition, mask)
    }
    // Shortcuts (Control+A) must not also type their letter.
    const typesText = chord.key.text !== undefined && (mask & ~MODIFIERS.Shift!.bit) === 0
    await dispatch(page, typesText ? 'keyDown' : 'rawKeyDown', chord.key, mask, typesText)
    await dispatch(page, 'keyUp', chord.key, mask)
    for (const name of [...chord.modifiers].reverse()) {
      const modifier = MODIFIERS[name]!
      mask &= ~modifier.bit
      await dispatch(page, 'keyUp', modifier.definition, mask)
    }
  }
}

async function dispatch(
  page: PageTarget,
  type: 'keyDown' | 'rawKeyDown' | 'keyUp',
  key: KeyDefinition,
  modifiers: number,
  withText = false,
): Promise<void> {
  const text = withText ? key.text : undefined
  await page.call('Input.dispatchKeyEvent', {
    type,
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    modifiers,
    text,
    unmodifiedText: text,
    // Lets Chromium run the editing command a shortcut stands for (select all, copy…).
    commands: type !== 'keyUp' && modifiers & MODIFIERS.Control!.bit ? editingCommands(key) : undefined,
  })
}

function editingCommands(key: KeyDefinition): string[] | undefined {
  const commands: Record<string, string> = {
    a: 'selectAll',
    c: 'copy',
    x: 'cut',
    v: 'paste',
    z: 'undo',
    y: 'redo',
  }
  const command = commands[key.key.toLowerCase()]
  return command ? [command] : undefined
}
