/**
 * The base of this API's controllers: typed services on `this.context`, JSON bodies of at most 16 KiB decoded by
 * the handler itself (see json-body.ts), and the session check that every record route and logout share.
 */
import { Controller, HttpError } from 'routeless'
import { readJsonObject } from './json-body.ts'
import type { Services } from './services.ts'
import { sessionTokenOf } from './session-token.ts'

export class ApiController extends Controller<Services> {
  /** A record is well under 1 KiB; anything near this limit is not a configuration record. */
  static bodyLimit = 16 * 1024
  /** Take every body raw: it is decoded in the handler, after `before()`. */
  static accepts = ['*/*']

  /** The request body as a JSON object (`{}` when there is none). */
  jsonBody(): Record<string, unknown> {
    return readJsonObject(this.request, this.body)
  }
}

/** Answers 403 unless the request carries a live session. */
export class SignedInController extends ApiController {
  /** The session token of this request (set by `before()`). */
  declare sessionToken: string

  async before() {
    const token = sessionTokenOf(this.request)
    if (token === undefined || (await this.context.sessions.userOf(token)) === undefined) {
      throw new HttpError(403, 'Log in first: POST /login gives a session cookie and an X-Session-Token for Authorization: Bearer')
    }
    this.sessionToken = token
  }
}
