/** Paths that need no API key (seed §5: swagger.json; DESIGN: health). Everything else does. */
export function isPublicPath(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === '/swagger.json' || path === '/_health')
}
