/**
 * Paths that need no API key (seed §5: swagger.json; DESIGN: health). The agent socket has its own
 * authentication (enrollment token or desktop credential, in its first message). Everything else
 * needs a key.
 */
export function isPublicPath(method: string, path: string): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    (path === '/swagger.json' || path === '/_health' || path === AGENT_SOCKET_PATH)
  )
}

export const AGENT_SOCKET_PATH = '/_agent/ws'
