/**
 * One closed set of error codes, mapped to HTTP in one place (the error plugin reads `status`).
 * Services throw these; controllers never build error bodies by hand.
 */
export const ErrorStatus = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  INVALID_ENVELOPE: 400,
  RESERVED_PATH: 400,
  INVALID_PATH: 400,
  INVALID_ANSWER: 400,
  INVALID_CALLBACK_URL: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A valid API key used outside its scopes or job patterns (the message names what it may do). */
  FORBIDDEN_SCOPE: 403,
  NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  BUILD_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  SAMPLE_NOT_FOUND: 404,
  SECRET_NOT_FOUND: 404,
  RECORDING_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  JOB_NOT_LIVE: 409,
  ROUTE_CONFLICT: 409,
  NO_OPEN_QUESTION: 409,
  QUESTION_MISMATCH: 409,
  /** Cancelling a build that has already succeeded or failed. */
  BUILD_FINISHED: 409,
  /** "Show me": the build is not asking to be shown. */
  NOT_DEMONSTRATING: 409,
  /** "Show me": someone else is demonstrating on the desktop (they hold it until they stop). */
  DESKTOP_IN_USE: 409,
  /** "Show me": the recording has ended (stopped, cancelled or failed). */
  RECORDING_NOT_ACTIVE: 409,
  /** "Show me": answering with a recording that is still recording (stop it first). */
  RECORDING_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  IDEMPOTENCY_KEY_REUSED: 422,
  EMPTY_RECORDING: 422,
  /** "Show me": remote input that cannot be done where it points (no focused field, no drop-down there, no such option). */
  INPUT_NOT_TAKEN: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The API key spent its token bucket; with `Retry-After`. */
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const

export type ErrorCode = keyof typeof ErrorStatus

export class AppError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra top-level members of the error body (e.g. `allowedMethods`, `field`). */
    readonly details?: Record<string, unknown>,
    /** Extra response headers (e.g. `WWW-Authenticate`, `Allow`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'AppError'
    this.status = ErrorStatus[code]
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; requestId: string } & Record<string, unknown>
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  return { error: { code: err.code, message: err.message, requestId, ...err.details } }
}
