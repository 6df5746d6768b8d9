/**
 * The `SmileID-Token` guard: the token → the partner and key it was issued for; 401 (with a `WWW-Authenticate`
 * challenge naming the header) when it is missing, malformed, forged, expired or its key was revoked. A routeless
 * guard, so it runs before the request body is read.
 */
import { AccessDenied, type Guard } from 'routeless'
import type { TokenClaims } from '../auth/tokens.ts'
import type { Product } from '../jobs/products.ts'
import type { ApiController } from './api-controller.ts'
import { apiError } from './errors.ts'

export interface Auth {
  partnerId: string
  keyId: string
  claims: TokenClaims
}

/** The challenge of every 401 of the token routes: the scheme is the header the token travels in. */
export const TOKEN_CHALLENGE = 'SmileID-Token realm="v3"'

/** 401 in the v3 envelope with `message` (each route family has its own). */
export function unauthorized(message: string): AccessDenied {
  return new AccessDenied(message, { headers: { 'WWW-Authenticate': TOKEN_CHALLENGE } })
}

/** Admits a request with a valid `SmileID-Token`; `this.auth` (and `this.principal`) are what it carried. */
export function smileIdToken(message = 'Invalid authentication credentials.'): Guard {
  return async (controller) => {
    const c = controller as ApiController
    const token = c.headers.get('smileid-token')?.trim()
    const claims = token ? await c.context.tokens.verify(token) : undefined
    if (!claims || !(await c.context.partners.isActiveKey(claims.partner_id, claims.kid))) throw unauthorized(message)
    c.auth = c.principal = { partnerId: claims.partner_id, keyId: claims.kid, claims }
  }
}

/** Hosted-link routes need an unscoped token: a token with a `product` claim is refused with 401. Runs after `smileIdToken`. */
export function unscopedToken(message: string): Guard {
  return (controller) => {
    if ((controller as ApiController).auth.claims.product !== undefined) throw unauthorized(message)
  }
}

/**
 * A token scoped to one product is refused (403) on the others. A guard, after `smileIdToken`: the contract answers
 * it before any field is judged.
 */
export function tokenForProduct(product: Product): Guard {
  return (controller) => {
    const scoped = (controller as ApiController).auth.claims.product
    if (scoped !== undefined && scoped !== product) throw apiError(403, 'Token is not authorized for this product.')
  }
}

/** Residency DocV requires `SmileID-Partner-ID`, and it must be the token's partner: checked before any field. */
export function partnerHeader(): Guard {
  return (controller) => {
    const c = controller as ApiController
    const header = c.headers.get('smileid-partner-id')?.trim()
    if (!header || !/^\d{3,}$/.test(header))
      throw apiError(400, "Required header 'SmileID-Partner-ID' is missing or invalid.")
    if (header.replace(/^0+(?=\d)/, '') !== c.auth.partnerId) throw apiError(403, 'You are not authorized to do that.')
  }
}
