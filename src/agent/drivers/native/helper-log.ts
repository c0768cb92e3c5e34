// A native helper's stderr, line by line, as entries of the agent's log (helper-host.ts reads it).

const LEVELS = new Set(['debug', 'info', 'warn', 'error'])

/**
 * The helper logs JSON objects with level and msg. Anything else comes from the runtime or a
 * library (a traceback, GLib's `-ERROR **` / `-WARNING **` lines): levelled by what it says.
 */
export function parseLogLine(line: string): {
  level: 'debug' | 'info' | 'warn' | 'error'
  msg: string
  fields: Record<string, unknown>
} {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>
    if (parsed && typeof parsed === 'object' && typeof parsed.msg === 'string') {
      const { level, msg, ...fields } = parsed
      const known = typeof level === 'string' && LEVELS.has(level)
      return { level: known ? (level as 'info') : 'info', msg: `helper: ${msg}`, fields }
    }
  } catch {}
  const level = /Traceback|-ERROR \*\*|-CRITICAL \*\*|Error:/.test(line)
    ? 'error'
    : /-WARNING \*\*|Warning:/.test(line)
      ? 'warn'
      : 'info'
  return { level, msg: `helper: ${line}`, fields: {} }
}
