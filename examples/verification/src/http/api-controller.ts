/**
 * Base class of the token-protected v3 controllers: the v3 error envelopes, the 10 MB gateway limit, and the
 * `SmileID-Token` guard before every handler (a class may set its own `static auth` for its 401 message).
 */
import { type AuthSpec, Controller } from 'routeless'
import { BODY_LIMIT } from '../config.ts'
import type { Services } from '../services.ts'
import { type Auth, smileIdToken } from './authenticate.ts'
import { renderApiError } from './errors.ts'

export class ApiController extends Controller<Services> {
  static bodyLimit = BODY_LIMIT
  static renderError = renderApiError
  static auth: AuthSpec = smileIdToken('Invalid authentication credentials.')

  /** The partner and key of the token (set by the guard). */
  declare auth: Auth
  declare principal: Auth
}
