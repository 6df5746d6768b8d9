/**
 * Base class of the token-protected v3 controllers: the v3 error envelopes, the 10 MB gateway limit, and the
 * `SmileID-Token` check before every handler.
 */
import { Controller } from 'routeless'
import { BODY_LIMIT } from '../config.ts'
import type { Services } from '../services.ts'
import { authenticate, type Auth } from './authenticate.ts'
import { renderApiError } from './errors.ts'

export class ApiController extends Controller<Services> {
  static bodyLimit = BODY_LIMIT
  static renderError = renderApiError
  /** The 401 message of this route family. */
  static unauthorized = 'Invalid authentication credentials.'

  declare auth: Auth

  async before(): Promise<void> {
    this.auth = await authenticate(this.context, this.request, (this.constructor as typeof ApiController).unauthorized)
  }
}
