/**
 * The v3 error envelopes. Most routes answer `{"status":"<reason phrase>","message":"…"}`; the gateway answers 413
 * in its own envelope; the public catalogue routes use `{"error":"…","code":"2413"}`.
 */
import { HttpError, STATUS_TEXT } from 'routeless'

export const MULTIPART_REQUIRED = 'Unsupported Media Type. Required Content-Type is multipart/form-data'
export const PAYLOAD_TOO_LARGE = 'Request payload too large. Maximum allowed size is 10 MB.'
export const INTERNAL_ERROR = 'An unexpected error occurred. Please try again or contact support.'

/** Reason phrases routeless does not list. */
const MORE_STATUS_TEXT: Record<number, string> = { 424: 'Failed Dependency' }

/** An error answered as `{"status": "<reason phrase>", "message"}`. */
export function apiError(status: number, message: string, headers?: HeadersInit): HttpError {
  return new HttpError(status, message, { headers })
}

export function required(field: string): HttpError {
  return apiError(400, `Required field '${field}' is missing or invalid.`)
}

export function invalid(field: string): HttpError {
  return apiError(400, `Field '${field}' is invalid.`)
}

/**
 * The message of an error: for a 400 of routeless's parameter binding (`errors: [{name, reason}]`), the first
 * failing parameter's reason — the schemas carry the contract's messages, and the envelopes have room for one.
 */
export function messageOf(error: HttpError): string {
  const issues = error.details?.errors
  if (error.status === 400 && Array.isArray(issues) && typeof issues[0]?.reason === 'string') return issues[0].reason
  return error.message
}

/** Renders every error of the v3 API (framework-made ones included) in the v3 envelopes. */
export function renderApiError(error: HttpError): Response | undefined {
  if (error.hasBody) return undefined
  const headers = new Headers(error.headers)
  if (error.status === 413 && !error.message.endsWith('is too large.')) {
    return Response.json({ job_id: null, message: PAYLOAD_TOO_LARGE, status: 'payload_too_large', user_id: null }, { status: 413, headers })
  }
  let message = messageOf(error)
  if (error.status === 415) message = MULTIPART_REQUIRED
  if (error.status === 500) message = INTERNAL_ERROR
  return Response.json({ status: STATUS_TEXT[error.status] ?? MORE_STATUS_TEXT[error.status] ?? 'Error', message }, { status: error.status, headers })
}

/** The `{error, code}` envelope of the public catalogue routes (2413: bad parameter, 2401: system error). */
export function renderServiceError(error: HttpError): Response | undefined {
  if (error.hasBody) return undefined
  const code = error.status >= 500 ? '2401' : '2413'
  const message = error.status >= 500 ? 'System Error' : messageOf(error)
  return Response.json({ error: message, code }, { status: error.status, headers: error.headers })
}
