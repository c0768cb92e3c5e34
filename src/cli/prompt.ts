/** Terminal prompts on stderr (stdout stays for results): a yes/no and a line typed without echo. */

async function readLine(question: string, echo: boolean): Promise<string> {
  const stdin = process.stdin
  // Echo goes off before the question shows: an answer typed as soon as it appears is never echoed.
  if (!echo) stdin.setRawMode(true)
  process.stderr.write(question)
  stdin.resume()
  stdin.setEncoding('utf8')
  try {
    return await new Promise<string>((resolve, reject) => {
      let line = ''
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n') {
            stdin.off('data', onData)
            return resolve(line)
          }
          if (ch === '\u0003') {
            stdin.off('data', onData)
            return reject(new Error('cancelled'))
          }
          if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1)
          else line += ch
        }
      }
      stdin.on('data', onData)
    })
  } finally {
    if (!echo) {
      stdin.setRawMode(false)
      process.stderr.write('\n')
    }
    stdin.pause()
  }
}

export async function confirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test((await readLine(question, true)).trim())
}

/** A secret typed at the terminal: never echoed, never in argv or shell history. */
export function readHidden(question: string): Promise<string> {
  return readLine(question, false)
}
