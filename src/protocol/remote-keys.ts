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

const MODIFIERS = new Set(['Ctrl', 'Control', 'Shift', 'Alt', 'Option', 'Meta', 'Cmd'])

/**
 * Why `key` is no key RemoteInput takes, or undefined: a named key, F1–F12 or one character,
 * after any modifiers ("Ctrl+A", "Shift+Tab").
 */
export function remoteKeyProblem(key: string): string | undefined {
  // "+" at the end is the plus key itself.
  const parts = key.length > 1 && key.endsWith('+') ? [...key.slice(0, -2).split('+'), '+'] : key.split('+')
  const last = parts.pop() ?? ''
  const bad = parts.find((m) => !MODIFIERS.has(m))
  if (bad !== undefined) return `"${bad}" is no modifier (Ctrl, Shift, Alt, Meta)`
  const named = (REMOTE_KEYS as readonly string[]).includes(last) || /^F([1-9]|1[0-2])$/.test(last)
  if (named || [...last].length === 1) return undefined
  return `must be one of ${REMOTE_KEYS.join(', ')}, F1–F12 or one character, after any modifiers (Ctrl+A, Shift+Tab)`
}
