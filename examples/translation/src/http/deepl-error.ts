/**
 * DeepL's error body, `{"message": "…"}`, for every error this API answers (framework-made ones included). A 400 from
 * routeless's check of a handler's types lists every failing parameter in `errors` (`{name, reason, kind}`); DeepL
 * names one, so the first becomes the message in DeepL's words: `Parameter 'x' not specified.` for a missing one,
 * the type's own `@errorMessage` where it has one, else `Value for 'x' not supported.`.
 */
import type { BadRequest, HttpError, NotFound, ParamIssue } from 'routeless'
import { notSpecifiedMessage, notSupportedMessage } from './params.ts'

/** DeepL's error body. */
export interface DeepLError {
  message: string
  detail?: string
}

/**
 * A 404 in DeepL's body: declared in the return type of a handler whose resource may not exist (the 404 itself is
 * thrown where the lookup fails, and rendered by `renderDeepLError`).
 */
export type Missing = NotFound<DeepLError>

/** A 400 in DeepL's body that a handler answers itself (a rule its parameter types cannot say). */
export type Refused = BadRequest<DeepLError>

export function renderDeepLError(error: HttpError): Response {
  const headers = new Headers(error.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  const issues = error.details?.errors as ParamIssue[] | undefined
  const message = issues?.length ? deeplMessage(issues[0]!) : error.message
  const body = error.hasBody ? error.body : { message }
  return new Response(JSON.stringify(body), { status: error.status, headers })
}

function deeplMessage(issue: ParamIssue): string {
  const name = issue.name.split('.')[0]!
  if (issue.kind === 'missing') return notSpecifiedMessage(name)
  // `own`: the type's @errorMessage, in DeepL's words already.
  if (issue.own) return issue.reason
  return notSupportedMessage(name)
}
