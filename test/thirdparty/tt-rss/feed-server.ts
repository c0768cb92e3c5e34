// The feeds' side of the internet for a tt-rss under test: an HTTP proxy on loopback that answers
// every `GET http://<host>/<path>` from the file <root>/<host>/<path> (404 when there is none).
// tt-rss fetches feeds through it (its _HTTP_PROXY), so a feed has a real-looking URL
// (http://news.harbortown.example/rss.xml) and nothing leaves the machine. A separate process, so
// the starter's synchronous seeding (update.php fetching a feed) is answered while it waits.
// Usage: bun feed-server.ts <root> <port>
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, normalize } from 'node:path'

const [root, port] = process.argv.slice(2)
if (!root || !port) throw new Error('usage: bun feed-server.ts <root> <port>')

Bun.serve({
  hostname: '127.0.0.1',
  port: Number(port),
  fetch(req) {
    const url = new URL(req.url)
    if (url.pathname === '/_up') return new Response('up')
    const host = (req.headers.get('host') ?? url.host).toLowerCase().replace(/:\d+$/, '')
    const file = normalize(join(root, host, decodeURIComponent(url.pathname)))
    if (!file.startsWith(normalize(root))) return new Response('forbidden', { status: 403 })
    if (!existsSync(file) || !statSync(file).isFile()) return new Response('not found', { status: 404 })
    const body = readFileSync(file)
    const type = body.includes('<feed') ? 'application/atom+xml' : 'application/rss+xml'
    return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } })
  },
})
