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
