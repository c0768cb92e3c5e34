/**
 * Paths that need no API key (seed §5: swagger.json; DESIGN: health). The agent socket has its own
 * authentication (enrollment token or desktop credential, in its first message). Everything else
 * needs a key.
 */
export function isPublicPath(method: string, path: string): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    (path === '/swagger.json' ||
      path === '/_health' ||
      path === AGENT_SOCKET_PATH ||
      AGENT_DOWNLOAD_PATHS.has(path))
  )
}

export const AGENT_SOCKET_PATH = '/_agent/ws'

/**
 * The agent's installer scripts and program: a PC fetches them before it has any credential, and
 * they hold no secret of the server's (src/modules/agent-install).
 */
export const AGENT_DOWNLOAD_PATHS: ReadonlySet<string> = new Set([
  '/_/agent/install.ps1',
  '/_/agent/uninstall.ps1',
  '/_/agent/deskhook.exe',
  '/_/agent/deskhook.exe.sha256',
])
