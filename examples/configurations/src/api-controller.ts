/**
 * The base of this API's controllers: typed services on `this.context`, JSON bodies of at most 16 KiB decoded by
 * the handler itself (see json-body.ts), this API's error format, and the session guard that every record route and
 * logout share.
 */
import { Controller, type Guard, HttpError } from 'routeless'
import { readJsonObject } from './json-body.ts'
import type { Services } from './services.ts'
import { sessionTokenOf } from './session-token.ts'
import { type FieldError, invalidInput } from './validation.ts'

export class ApiController extends Controller<Services> {
  /** A record is well under 1 KiB; anything near this limit is not a configuration record. */
  static bodyLimit = 16 * 1024
  /**
   * Take every body raw: json-body.ts decodes it, with this API's messages (415 for forms too, "not valid JSON: …",
   * "must be a JSON object"), after the query parameters have been judged.
   */
  static accepts = ['*/*']

  /**
   * Errors in this API's format. Its own 400s already carry `errors: [{field, message}]`; a 400 from routeless's
   * parameter binding (`errors: [{name, reason}]`) is given the same shape, so no answer ever has the other one.
   */
  static renderError(error: HttpError): Response | undefined {
    const issues = error.details?.errors
    if (error.status !== 400 || !Array.isArray(issues) || !issues.every((i) => typeof i?.name === 'string')) return undefined
    const errors: FieldError[] = issues.map((i: { name: string; reason: string }) => ({ field: i.name, message: i.reason }))
    const mapped = invalidInput(errors)
    return Response.json(mapped.toJSON(), { status: 400, headers: error.headers })
  }

  /** The request body as a JSON object (`{}` when there is none). */
  jsonBody(): Record<string, unknown> {
    return readJsonObject(this.request, this.body)
  }
}

/** Who a session guard admitted: the token it carried (logout ends it) and its user. */
export interface Session {
  token: string
  userId: number
}

export const LOG_IN_FIRST = 'Log in first: POST /login gives a session cookie and an X-Session-Token for Authorization: Bearer'

/**
 * 403 unless the request carries a live session (the spec's status: a session is not an HTTP authentication scheme,
 * so there is no 401 challenge to give). Like every routeless guard it runs before the body is read.
 */
export const signedIn: Guard = async (controller) => {
  const c = controller as SignedInController
  const token = sessionTokenOf(c.request)
  const userId = token === undefined ? undefined : await c.context.sessions.userOf(token)
  if (token === undefined || userId === undefined) throw new HttpError(403, LOG_IN_FIRST)
  c.principal = { token, userId } satisfies Session
}

/** Answers 403 unless the request carries a live session. */
export class SignedInController extends ApiController {
  static auth = signedIn
  declare principal: Session
}
