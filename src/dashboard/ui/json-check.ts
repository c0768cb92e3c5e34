// A strict JSON syntax check that says where the text goes wrong (line and column) in words a
// person can act on. Browsers and Bun word JSON.parse errors differently (JavaScriptCore gives no
// position), so the form's island and the server share this one check and say the same thing.
// No imports: it is bundled into the browser islands as well.

export type JsonCheck =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number }

class JsonSyntax extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message)
  }
}

const MAX_DEPTH = 200
// Sticky (`y`): each matches at lastIndex only, so scanning never copies the text.
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y
const WORD = /[A-Za-z_$][\w$]*/y

function scan(text: string): void {
  let i = 0
  const fail = (message: string, at = i): never => {
    throw new JsonSyntax(message, at)
  }
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const end = (what: string) => fail(`The text ends too early: ${what}`)
  const string = () => {
    const start = i
    i++
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') {
        i++
        return
      }
      if (c === '\\') {
        const e = text[i + 1]
        if (e === undefined) break
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('\\u must be followed by 4 hex digits')
          i += 6
        } else if ('"\\/bfnrt'.includes(e)) i += 2
        else fail(`\\${e} is not an escape JSON knows (use \\\\ for a backslash)`)
        continue
      }
      if (c === '\n' || c === '\r') fail('A string cannot hold a line break: close it with " or write \\n')
      if (c < ' ') fail('A string cannot hold a control character: escape it (e.g. \\t)')
      i++
    }
    fail('This string is not closed: a " is missing', start)
  }
  const number = () => {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text)
    if (!m || m[0] === '-') fail('This is not a number JSON accepts (e.g. 12, -3.5, 1e6)')
    const after = text[i + m![0].length]
    if (after !== undefined && /[0-9.eE]/.test(after))
      fail('This is not a number JSON accepts (no leading zeros, a digit after the point)', i)
    i += m![0].length
  }
  const value = (depth: number) => {
    space()
    if (i >= text.length) end('a value is missing')
    if (depth > MAX_DEPTH) fail(`The JSON is nested more than ${MAX_DEPTH} levels deep`)
    const c = text[i]!
    if (c === '{') return object(depth)
    if (c === '[') return array(depth)
    if (c === '"') return string()
    if (c === '-' || (c >= '0' && c <= '9')) return number()
    WORD.lastIndex = i
    const word = WORD.exec(text)?.[0]
    if (word === 'true' || word === 'false' || word === 'null') {
      i += word.length
      return
    }
    if (c === "'") fail('JSON strings use double quotes ("), not single quotes')
    if (word) fail(`Unexpected word ${word}: text values need double quotes ("${word}")`)
    if (c === '}' || c === ']') fail(`Unexpected ${c}: a value is missing (a trailing comma?)`)
    fail(`Unexpected character ${c}`)
  }
  const object = (depth: number) => {
    i++
    space()
    if (text[i] === '}') {
      i++
      return
    }
    for (;;) {
      space()
      if (i >= text.length) end('a } is missing')
      if (text[i] === '}') fail('A trailing comma before } is not allowed in JSON')
      if (text[i] === "'") fail('Property names use double quotes ("), not single quotes')
      if (text[i] !== '"') fail('Expected a property name in double quotes')
      string()
      space()
      if (i >= text.length) end('a : and a value are missing')
      if (text[i] !== ':') fail('Expected : after the property name')
      i++
      value(depth + 1)
      space()
      if (i >= text.length) end('a } is missing')
      if (text[i] === '}') {
        i++
        return
      }
      if (text[i] !== ',') fail('Expected , or } after the value (a missing comma?)')
      i++
    }
  }
  const array = (depth: number) => {
    i++
    space()
    if (text[i] === ']') {
      i++
      return
    }
    for (;;) {
      space()
      if (text[i] === ']') fail('A trailing comma before ] is not allowed in JSON')
      value(depth + 1)
      space()
      if (i >= text.length) end('a ] is missing')
      if (text[i] === ']') {
        i++
        return
      }
      if (text[i] !== ',') fail('Expected , or ] after the value (a missing comma?)')
      i++
    }
  }
  value(0)
  space()
  if (i < text.length) fail('Unexpected text after the end of the JSON value')
}

function position(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at)
  const line = before.split('\n').length
  return { line, column: at - before.lastIndexOf('\n') }
}

export function checkJson(text: string): JsonCheck {
  try {
    scan(text)
  } catch (error) {
    if (!(error instanceof JsonSyntax)) throw error
    return { ok: false, message: error.message, ...position(text, error.at) }
  }
  return { ok: true, value: JSON.parse(text) }
}

export type JsonObjectCheck =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; message: string }

/**
 * A form field that must hold a JSON object; empty is allowed when the field is optional (the
 * value is then undefined). The message names the line and column of a syntax error.
 */
export function checkJsonObject(text: string, opts: { optional?: boolean } = {}): JsonObjectCheck {
  if (text.trim() === '')
    return opts.optional
      ? { ok: true, value: undefined }
      : { ok: false, message: 'Enter a JSON object, e.g. {}' }
  const r = checkJson(text)
  if (!r.ok) return { ok: false, message: `Line ${r.line}, column ${r.column}: ${r.message}` }
  if (typeof r.value !== 'object' || r.value === null || Array.isArray(r.value))
    return { ok: false, message: 'This must be a JSON object: { "name": value, … }' }
  return { ok: true, value: r.value as Record<string, unknown> }
}
