/**
 * The v3 error envelopes. Most routes answer `{"status":"<reason phrase>","message":"…"}`; the gateway answers 413
 * in its own envelope; the public catalogue routes use `{"error":"…","code":"2413"}`.
 */
import { type Conflict, HttpError, type NotFound, type ParamIssue, STATUS_TEXT } from 'routeless'

export const MULTIPART_REQUIRED = 'Unsupported Media Type. Required Content-Type is multipart/form-data'
export const PAYLOAD_TOO_LARGE = 'Request payload too large. Maximum allowed size is 10 MB.'
export const INTERNAL_ERROR = 'An unexpected error occurred. Please try again or contact support.'

/** Reason phrases routeless does not list. */
const MORE_STATUS_TEXT: Record<number, string> = { 424: 'Failed Dependency' }

/** The v3 error envelope. */
export interface V3Error {
  /** The reason phrase. */
  status: string
  message: string
}

/** A 404 or a 409 in the v3 envelope: declared in the return types of the handlers that throw them (`apiError`). */
export type V3NotFound = NotFound<V3Error>
export type V3Conflict = Conflict<V3Error>

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
 * How a parameter that routeless's typed binding refused is worded. The handlers' types are the contract
 * (src/http/forms.ts and the types beside each handler); routeless answers one 400 whose `details.errors` lists
 * `{ name, reason, kind }`, and the v3 envelopes have room for one message: the first issue's.
 */
export interface FieldMessages {
  /** A required field that was not sent. */
  missing(name: string): string
  /** A value of the wrong type, out of range, too long… (where the field's type gives no `@errorMessage`). */
  invalid(name: string): string
  /** A field the endpoint does not take. */
  unknown(name: string): string
  /** The order in which the contract checks the fields: the first refused one in it speaks (else the first sent). */
  order?: readonly string[]
}

/** Where the contract words a missing field its own way. */
const MISSING: Record<string, string> = { consent: 'consent is required', news_category: 'news_category is required' }

/** The multipart fields and queries of the v3 routes: the contract's `Required field 'x' is missing or invalid.` */
export const FORM_FIELDS: FieldMessages = {
  missing: (name) => MISSING[name] ?? `Required field '${name}' is missing or invalid.`,
  invalid: (name) => `Required field '${name}' is missing or invalid.`,
  unknown: (name) => `Field '${name}' is not supported.`,
}

/** The queries of `/v3/services/id_status`, worded as that service words them (`"country" is required`). */
export const QUERY_FIELDS: FieldMessages = {
  missing: (name) => `"${name}" is required`,
  invalid: (name) => `"${name}" is required`,
  unknown: (name) => `"${name}" is not allowed`,
}

/** The v3 message of one refused parameter. */
export function issueMessage(issue: ParamIssue, messages: FieldMessages = FORM_FIELDS): string {
  if (issue.kind === 'unknown') return messages.unknown(issue.name)
  // A field's JSDoc `@errorMessage` is the contract's own sentence: sent as it is.
  if (issue.own) return issue.reason
  return issue.kind === 'missing' ? messages.missing(issue.name) : messages.invalid(issue.name)
}

/** The message of an error: for a 400 of routeless's parameter binding, the first refused parameter's. */
export function messageOf(error: HttpError, messages: FieldMessages = FORM_FIELDS): string {
  const issues = error.details?.errors
  if (error.status !== 400 || !Array.isArray(issues) || typeof issues[0]?.reason !== 'string') return error.message
  const rank = (issue: { name: string }) => {
    const at = messages.order?.indexOf(issue.name) ?? -1
    return at < 0 ? Infinity : at
  }
  const first = issues.reduce((best, issue) => (rank(issue) < rank(best) ? issue : best))
  return issueMessage(first, messages)
}

/** A renderer of every error of the v3 API (framework-made ones included) in the v3 envelopes. */
export function apiErrorRenderer(messages: FieldMessages = FORM_FIELDS): (error: HttpError) => Response | undefined {
  return (error) => {
    if (error.hasBody) return undefined
    const headers = new Headers(error.headers)
    if (error.status === 413 && !error.message.endsWith('is too large.')) {
      return Response.json(
        { job_id: null, message: PAYLOAD_TOO_LARGE, status: 'payload_too_large', user_id: null },
        { status: 413, headers },
      )
    }
    let message = messageOf(error, messages)
    if (error.status === 415) message = MULTIPART_REQUIRED
    if (error.status === 500) message = INTERNAL_ERROR
    return Response.json(
      { status: STATUS_TEXT[error.status] ?? MORE_STATUS_TEXT[error.status] ?? 'Error', message },
      { status: error.status, headers },
    )
  }
}

/** Renders every error of the v3 API (framework-made ones included) in the v3 envelopes. */
export const renderApiError = apiErrorRenderer()

/** The public catalogue's queries (their own messages are the types' `@errorMessage`). */
const CATALOGUE_FIELDS: FieldMessages = {
  missing: (name) => `${name} is required`,
  invalid: (name) => `${name} is invalid`,
  unknown: (name) => `${name} is not a parameter of this service`,
  order: ['continent', 'locale', 'country_code'],
}

/** The `{error, code}` envelope of the public catalogue routes (2413: bad parameter, 2401: system error). */
export function renderServiceError(error: HttpError): Response | undefined {
  if (error.hasBody) return undefined
  const code = error.status >= 500 ? '2401' : '2413'
  const message = error.status >= 500 ? 'System Error' : messageOf(error, CATALOGUE_FIELDS)
  return Response.json({ error: message, code }, { status: error.status, headers: error.headers })
}
