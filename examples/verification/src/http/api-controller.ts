/**
 * Base class of the token-protected v3 controllers: the v3 error envelopes, the 10 MB gateway limit, multipart bodies
 * only, and the `SmileID-Token` guard before every handler (a class may set its own `static auth` for its 401 message).
 */
import { type AuthSpec, Controller, type Guard } from 'routeless'
import { BODY_LIMIT } from '../config.ts'
import type { Product } from '../jobs/products.ts'
import type { Services } from '../services.ts'
import { type Auth, smileIdToken, tokenForProduct } from './authenticate.ts'
import { renderApiError } from './errors.ts'

export class ApiController extends Controller<Services, Auth> {
  static bodyLimit = BODY_LIMIT
  /** v3 bodies are multipart/form-data only: any other body is a 415 before its fields are judged. */
  static consumes = ['multipart'] as const
  static renderError = renderApiError
  static auth: AuthSpec = smileIdToken('Invalid authentication credentials.')

  /** The partner and key of the token (set by the guard; also `this.principal`). */
  declare auth: Auth
}

/** The guards of a product's submission route: a valid token, not scoped to another product. */
export function productAuth(product: Product, ...more: Guard[]): Guard[] {
  return [smileIdToken('Invalid authentication credentials.'), ...more, tokenForProduct(product)]
}
