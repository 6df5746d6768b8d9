/**
 * The `SmileID-Token` guard: the token → the partner and key it was issued for; 401 (with a `WWW-Authenticate`
 * challenge naming the header) when it is missing, malformed, forged, expired or its key was revoked. A routeless
 * guard, so it runs before the request body is read.
 */
import { AccessDenied, type Guard } from 'routeless'
import type { TokenClaims } from '../auth/tokens.ts'
import type { ApiController } from './api-controller.ts'

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
    const token = c.request.headers.get('smileid-token')?.trim()
    const claims = token ? c.context.tokens.verify(token) : undefined
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
