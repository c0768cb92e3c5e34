// The named keys RemoteInput's `key` accepts: plain data, so the dashboard's island can import it
// without the schema library.
export const REMOTE_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Space',
] as const

/** A chord's parts: modifiers, then the key ("+" at the end, or alone, is the plus key itself). */
function splitChord(key: string): string[] {
  if (key === '+') return ['+']
  return key.length > 1 && key.endsWith('+') ? [...key.slice(0, -2).split('+'), '+'] : key.split('+')
}

const MODIFIERS = new Set(['Ctrl', 'Control', 'Shift', 'Alt', 'Option', 'Meta', 'Cmd'])

/**
 * Why `key` is no key RemoteInput takes, or undefined: a named key, F1–F12 or one character,
 * after any modifiers ("Ctrl+A", "Shift+Tab").
 */
export function remoteKeyProblem(key: string): string | undefined {
  const parts = splitChord(key)
  const last = parts.pop() ?? ''
  const bad = parts.find((m) => !MODIFIERS.has(m))
  if (bad !== undefined) return `"${bad}" is no modifier (Ctrl, Shift, Alt, Meta)`
  const named = (REMOTE_KEYS as readonly string[]).includes(last) || /^F([1-9]|1[0-2])$/.test(last)
  if (named || [...last].length === 1) return undefined
  return `must be one of ${REMOTE_KEYS.join(', ')}, F1–F12 or one character, after any modifiers (Ctrl+A, Shift+Tab)`
}

const MODIFIER_NAMES: Record<string, string> = {
  ctrl: 'Ctrl',
  control: 'Ctrl',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  super: 'Meta',
}
const KEY_ALIASES: Record<string, string> = {
  right: 'ArrowRight',
  left: 'ArrowLeft',
  up: 'ArrowUp',
  down: 'ArrowDown',
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  spacebar: 'Space',
}

/**
 * The key as RemoteInput spells it, from how a person may write it: modifiers and named keys in
 * any case and by common other names ("ctrl+s" → "Ctrl+s", "shift+right" → "Shift+ArrowRight",
 * "esc" → "Escape"); one character keeps its case. Anything unknown is left as it is, for
 * remoteKeyProblem to name.
 */
export function canonicalKey(key: string): string {
  const parts = splitChord(key)
  const last = parts.pop() ?? ''
  const modifiers = parts.map((m) => MODIFIER_NAMES[m.trim().toLowerCase()] ?? m)
  const lower = last.toLowerCase()
  const named =
    (REMOTE_KEYS as readonly string[]).find((k) => k.toLowerCase() === lower) ??
    KEY_ALIASES[lower] ??
    (/^f([1-9]|1[0-2])$/.test(lower) ? lower.toUpperCase() : last)
  return [...modifiers, named].join('+')
}
