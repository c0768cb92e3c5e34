// Every file the dashboard serves is imported here, so `bun build --compile` embeds it in the
// binary: nothing is read from a folder or a CDN at run time.
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' }
import swaggerJs from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' }
import css from './assets/dashboard.css' with { type: 'text' }
import islands from './assets/dist/dashboard.js' with { type: 'text' }
import icon from './assets/icon.svg' with { type: 'text' }

export interface Asset {
  /** The URL with the content hash in its name: cached for a year, never stale. */
  url: string
  type: string
  body: string
}

const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
}

function asset(name: string, body: string): Asset {
  const dot = name.lastIndexOf('.')
  const ext = name.slice(dot + 1)
  const hash = new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 12)
  return { url: `/_/assets/${name.slice(0, dot)}.${hash}.${ext}`, type: TYPES[ext]!, body }
}

export const assets = {
  css: asset('dashboard.css', css),
  js: asset('dashboard.js', islands),
  icon: asset('icon.svg', icon),
  swaggerCss: asset('swagger-ui.css', swaggerCss),
  swaggerJs: asset('swagger-ui-bundle.js', swaggerJs),
} satisfies Record<string, Asset>

const byUrl = new Map<string, Asset>(Object.values(assets).map((a) => [a.url, a]))

/** The asset at this URL, or undefined (an old hash after an upgrade is a 404). */
export function findAsset(path: string): Asset | undefined {
  return byUrl.get(path)
}

export function assetResponse(a: Asset, request: Request): Response {
  const headers = {
    'content-type': a.type,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  }
  if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    return new Response(gzipped(a), {
      headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
    })
  }
  return new Response(a.body, { headers: { ...headers, vary: 'accept-encoding' } })
}

const gz = new WeakMap<Asset, Uint8Array<ArrayBuffer>>()
function gzipped(a: Asset): Uint8Array<ArrayBuffer> {
  let bytes = gz.get(a)
  if (!bytes) {
    bytes = Bun.gzipSync(new TextEncoder().encode(a.body)) as Uint8Array<ArrayBuffer>
    gz.set(a, bytes)
  }
  return bytes
}
