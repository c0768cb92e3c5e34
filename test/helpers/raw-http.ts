// A request written byte for byte on a TCP socket: for what fetch refuses to send (no Host, a
// Host no URL can be made of, oversized lines).
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export function rawRequest(url: string, head: string, body = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n${body}`))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [top = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = top.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const at = line.indexOf(':')
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim()
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') })
    })
  })
}
