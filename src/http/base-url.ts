import type { Config } from '../config/index.ts'

/** The URL callers reach deskhook at: `--public-url` when set, else what this request used. */
export function baseUrl(config: Config, request: Request): string {
  return config.publicUrl ?? new URL(request.url).origin
}
