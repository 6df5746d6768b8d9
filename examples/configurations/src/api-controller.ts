/**
 * The base of this API's controllers: typed services on `this.context`, JSON bodies of at most 16 KiB (a form is a
 * 415), this API's error format, and the session guard that every record route and logout share.
 */
import { Controller, type Guard, HttpError, type ParamIssue } from 'routeless'
import { type FieldError, invalidInput } from './record-rules.ts'
import type { Services } from './services.ts'
import { sessionTokenOf } from './session-token.ts'

/** Who a session guard admitted: the token it carried (logout ends it) and its user. */
export interface Session {
  token: string
  userId: number
}

export class ApiController<Principal = unknown> extends Controller<Services, Principal> {
  /** A record is well under 1 KiB; anything near this limit is not a configuration record. */
  static bodyLimit = 16 * 1024
  /** Bodies are JSON objects; a form or any other type is a 415 that says so. */
  static consumes = ['json'] as const

  /**
   * Errors in this API's format: every 400 carries `errors: [{field, message}]`, in the order found, and `message`
   * joins them. routeless's parameter check (`errors: [{name, reason, kind}]`, from the handler's types) is given
   * that shape here; record-rules.ts makes it directly.
   */
  static renderError(error: HttpError): Response | undefined {
    const issues = error.details?.errors
    if (error.status !== 400 || !Array.isArray(issues) || !issues.every((i) => typeof i?.name === 'string'))
      return undefined
    const mapped = invalidInput((issues as ParamIssue[]).map(fieldError))
    return Response.json(mapped.toJSON(), { status: 400, headers: error.headers })
  }
}

/** One problem in this API's words: the type's own `@errorMessage` as it is, a generated reason after the field's name. */
function fieldError({ name, reason, kind, own }: ParamIssue): FieldError {
  if (kind === 'unknown' && name === 'id')
    return { field: name, message: 'id is assigned by the server and cannot be set' }
  return { field: name, message: own ? reason : `${name} ${reason}` }
}

export const LOG_IN_FIRST =
  'Log in first: POST /login gives a session cookie and an X-Session-Token for Authorization: Bearer'

/**
 * 403 unless the request carries a live session (the spec's status: a session is not an HTTP authentication scheme,
 * so there is no 401 challenge to give). Like every routeless guard it runs before the body is read.
 */
export const signedIn: Guard = async (controller) => {
  const c = controller as SignedInController
  const token = sessionTokenOf(c.headers)
  const userId = token === undefined ? undefined : await c.context.sessions.userOf(token)
  if (token === undefined || userId === undefined) throw new HttpError(403, LOG_IN_FIRST)
  c.principal = { token, userId }
}

/** Answers 403 unless the request carries a live session. */
export class SignedInController extends ApiController<Session> {
  static auth = signedIn
}
