import type { AppContext } from '../context.ts'

/**
 * The URL callers reach deskhook at, for the links deskhook stores and sends (triggerUrl,
 * replayUrl, OpenAPI's servers): `--public-url` when set, else the address the server listens
 * on. Never the request's Host header: a caller could otherwise plant its own host in signed
 * status events and stored replays.
 */
export function baseUrl(ctx: Pick<AppContext, 'config' | 'site'>): string {
  const { config } = ctx
  if (config.publicUrl) return config.publicUrl
  if (ctx.site.url) return ctx.site.url
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}
