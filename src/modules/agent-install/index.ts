import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestState } from '../../http/request-state.ts'
import { readServedTls } from '../../tls/served-record.ts'
import { agentExeMissing, findAgentExe } from './agent-exe.ts'
import { readInstallOptions } from './install-options.ts'
import {
  AGENT_EXE_PATH,
  AGENT_SHA256_PATH,
  agentServerUrl,
  INSTALL_SCRIPT_PATH,
  installScript,
  reachableOnlyHere,
  sha256Line,
  UNINSTALL_SCRIPT_PATH,
  uninstallScript,
} from './service.ts'

/**
 * What a Windows PC fetches to install the agent: the scripts and the program. Public (the PC has
 * no session; public-paths.ts), and they carry no secret of the server's: the only secret is the
 * enrollment token the PC itself sends in `?token=` (never logged: the access log has no query).
 * Answers are plain text, what PowerShell shows when `irm` fails.
 */
export const agentInstallRoutes = (ctx: AppContext) => {
  const server = () => agentServerUrl(baseUrl(ctx))
  const notHere = (request: Request) =>
    reachableOnlyHere(server(), request.url)
      ? text(
          409,
          `This server's address is ${server()}, which works only on the server itself. ` +
            'Start the server with --public-url http://<its name>:<port> so that PCs can reach it, ' +
            'then copy the command from the dashboard again.',
        )
      : null
  return new Elysia({ name: 'routes.agent-install' })
    .get(INSTALL_SCRIPT_PATH, async ({ request }) => {
      const options = readInstallOptions(requestState(request).url.searchParams)
      if ('problem' in options) return text(400, options.problem)
      const refused = notHere(request)
      if (refused) return refused
      const exe = await findAgentExe(ctx)
      if (!exe) return text(404, agentExeMissing(ctx, { exactPlaces: false }))
      // The certificate the PC is to pin: what enrollment tokens carry (desktops/service.ts).
      const pin = readServedTls(ctx.config.dataDir)?.fingerprint ?? null
      return text(200, installScript(server(), exe, options, pin), {
        'content-disposition': 'inline; filename="install.ps1"',
      })
    })
    .get(UNINSTALL_SCRIPT_PATH, ({ request }) => {
      return (
        notHere(request) ??
        text(200, uninstallScript(server()), { 'content-disposition': 'inline; filename="uninstall.ps1"' })
      )
    })
    .get(AGENT_EXE_PATH, async () => {
      const exe = await findAgentExe(ctx)
      if (!exe) return text(404, agentExeMissing(ctx, { exactPlaces: false }))
      return new Response(Bun.file(exe.path), {
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="deskhook.exe"',
          // Revalidated every time: the file changes when the admin puts a new agent in place.
          'cache-control': 'no-cache',
          etag: `"${exe.sha256}"`,
          'x-content-type-options': 'nosniff',
        },
      })
    })
    .get(AGENT_SHA256_PATH, async () => {
      const exe = await findAgentExe(ctx)
      return exe ? text(200, sha256Line(exe)) : text(404, agentExeMissing(ctx, { exactPlaces: false }))
    })
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body.endsWith('\n') ? body : `${body}\n`, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      // A script may hold the PC's enrollment token: no cache keeps it.
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  })
}
