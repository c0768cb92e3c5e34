/**
 * What a script served to Windows PCs must avoid so that Windows PowerShell 5.1 (the one every
 * Windows 10/11 has) runs it, piped through `irm … | iex` or saved and run with -File. Nothing here
 * runs PowerShell: these are checks on the text, with strings and comments set aside.
 */

/** The script with comments removed and every string's content emptied (`''`, `""`). */
export function codeOnly(script: string): string {
  let out = ''
  let i = 0
  while (i < script.length) {
    const c = script[i]!
    if (c === '<' && script[i + 1] === '#') {
      const end = script.indexOf('#>', i + 2)
      i = end < 0 ? script.length : end + 2
    } else if (c === '#') {
      while (i < script.length && script[i] !== '\n') i++
    } else if (c === "'") {
      i++
      while (i < script.length && !(script[i] === "'" && script[i + 1] !== "'"))
        i += script[i] === "'" ? 2 : 1
      i++
      out += "''"
    } else if (c === '"') {
      i++
      while (i < script.length && !(script[i] === '"' && script[i + 1] !== '"'))
        i += script[i] === '`' || script[i] === '"' ? 2 : 1
      i++
      out += '""'
    } else {
      out += c
      i++
    }
  }
  return out
}

/** The contents of the double-quoted (expanding) strings. */
export function doubleQuoted(script: string): string[] {
  return [...script.replace(/'(?:[^']|'')*'/g, "''").matchAll(/"((?:[^"`]|`.|"")*)"/g)].map((m) => m[1]!)
}

/** Each construct Windows PowerShell 5.1 lacks or that breaks `irm | iex`, and how to find it. */
const IN_CODE: [string, RegExp][] = [
  ['?? / ??= (null-coalescing, PowerShell 7)', /\?\?/],
  ['?. / ?[ (null-conditional, PowerShell 7)', /\?[.[]/],
  ['a ? b : c (ternary, PowerShell 7), or the ? alias of Where-Object', /\?/],
  ['&& (pipeline chain, PowerShell 7)', /&&/],
  ['|| (pipeline chain, PowerShell 7)', /\|\|/],
  ['exit (closes the PowerShell window of `irm | iex`)', /\bexit\b/i],
  ['-Parallel (PowerShell 7)', /-Parallel\b/i],
  ['-SkipCertificateCheck (PowerShell 6+)', /-SkipCertificateCheck\b/i],
  ['-AsHashtable (PowerShell 6+)', /-AsHashtable\b/i],
  ['-AsByteStream (PowerShell 6+)', /-AsByteStream\b/i],
  ['-AdditionalChildPath (PowerShell 6+)', /-AdditionalChildPath\b/i],
  ['-Resume / -SslProtocol / -NoProxy (PowerShell 6+)', /-(?:Resume|SslProtocol|NoProxy)\b/i],
  ['utf8NoBOM and friends (PowerShell 6+)', /\butf8(?:NoBOM|BOM)\b/i],
  ['$IsWindows / $IsLinux / $PSStyle (PowerShell 6+)', /\$(?:IsWindows|IsLinux|IsMacOS|PSStyle)\b/i],
  [
    'Test-Json / Get-Error / ConvertFrom-Json -Depth (PowerShell 6+)',
    /\b(?:Test-Json|Get-Error)\b|ConvertFrom-Json\s+-Depth/i,
  ],
  ['a clean {} block (PowerShell 7.3)', /\bclean\s*\{/i],
]

/** Every problem found, by name; [] when the script suits Windows PowerShell 5.1. */
export function powershell51Problems(script: string): string[] {
  const problems: string[] = []
  for (let i = 0; i < script.length; i++)
    if (script.charCodeAt(i) > 0x7e || (script.charCodeAt(i) < 0x20 && !'\r\n\t'.includes(script[i]!))) {
      // 5.1 reads a file without a BOM in the ANSI code page, and takes ‘ ’ “ ” for quotes.
      problems.push(
        `a character other than printable ASCII at ${i}: ${JSON.stringify(script.slice(i - 20, i + 5))}`,
      )
      break
    }
  if (/@['"][ \t]*\r?$/m.test(script)) problems.push('a here-string (@" or @\')')
  const code = codeOnly(script)
  for (const [what, pattern] of IN_CODE) if (pattern.test(code)) problems.push(what)
  for (const [open, close] of ['{}', '()', '[]'])
    if (code.split(open!).length !== code.split(close!).length) problems.push(`unbalanced ${open}${close}`)
  for (const text of doubleQuoted(script)) {
    // "$server:" reads as the variable `server:` of a drive, not $server and a colon.
    const scoped = /\$(?!(?:env|script|global|local|private|using):)\w+:/i.exec(text)
    if (scoped) problems.push(`${scoped[0]} in "${text}" (write \${name}: or concatenate)`)
  }
  return problems
}
