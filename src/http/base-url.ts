import type { Config } from '../config/index.ts'
import { requestState } from './request-state.ts'

/** The URL callers reach deskhook at: `--public-url` when set, else what this request used. */
export function baseUrl(config: Config, request: Request): string {
  return config.publicUrl ?? requestState(request).url.origin
}
