/** Base classes of the routes that need no token: POST /v3/token (v3 envelope) and the public catalogue (service envelope). */
import { Controller } from 'routeless'
import type { Services } from '../services.ts'
import { renderApiError, renderServiceError } from './errors.ts'

export class OpenController extends Controller<Services> {
  static bodyLimit = 64 * 1024
  static consumes = ['multipart'] as const
  static renderError = renderApiError
}

export class CatalogueController extends Controller<Services> {
  static renderError = renderServiceError
}
