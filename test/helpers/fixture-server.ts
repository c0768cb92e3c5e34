/**
 * Tiny static server for the fixture web apps in test/fixtures/apps.
 *
 * Serves `/crm/` and `/helpdesk/` (plus their assets). The server is stateless:
 * each app keeps its data in page memory, so reloading a page resets that app.
 */
import { join, normalize, sep } from 'node:path'

const APPS_DIR = join(import.meta.dir, '..', 'fixtures', 'apps')
const APPS = new Set(['crm', 'helpdesk'])

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export interface FixtureServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:41234`; apps live at `${url}/crm/` and `${url}/helpdesk/`. */
  url: string
  stop(): Promise<void>
}

function contentType(path: string): string {
  const dot = path.lastIndexOf('.')
  return (dot >= 0 && CONTENT_TYPES[path.slice(dot)]) || 'application/octet-stream'
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
}

async function handle(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } })
  }
  const { pathname } = new URL(req.url)
  if (pathname === '/favicon.ico') return new Response(null, { status: 204 })
  if (pathname === '/') {
    const links = [...APPS].map((app) => `<li><a href="/${app}/">${app}</a></li>`).join('')
    return new Response(`<!doctype html><title>Fixture apps</title><ul>${links}</ul>`, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  }

  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return notFound()
  }
  const [, app, ...rest] = decoded.split('/')
  if (!app || !APPS.has(app)) return notFound()
  // `/crm` -> `/crm/` so relative asset URLs resolve inside the app folder.
  if (rest.length === 0) return new Response(null, { status: 301, headers: { location: `/${app}/` } })

  const relative = rest.join('/') || 'index.html'
  const appDir = join(APPS_DIR, app)
  const filePath = normalize(join(appDir, relative))
  if (!filePath.startsWith(appDir + sep)) return notFound()

  const file = Bun.file(filePath)
  if (!(await file.exists())) return notFound()
  return new Response(req.method === 'HEAD' ? null : file, {
    headers: { 'content-type': contentType(filePath), 'cache-control': 'no-store' },
  })
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle })
  return {
    url: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.stop(true)
    },
  }
}
