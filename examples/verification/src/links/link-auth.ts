/** Hosted-link routes need an unscoped token: a token with a `product` claim is refused with 401. */
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'

export function requireUnscopedToken(c: ApiController): void {
  if (c.auth.claims.product !== undefined) throw apiError(401, 'Missing or invalid authentication credentials.')
}
