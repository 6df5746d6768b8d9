/** `SmileID-Token` → the partner and key it was issued for; 401 when missing, malformed, forged, expired or revoked. */
import type { TokenClaims } from '../auth/tokens.ts'
import type { Services } from '../services.ts'
import { apiError } from './errors.ts'

export interface Auth {
  partnerId: string
  keyId: string
  claims: TokenClaims
}

export async function authenticate(s: Services, request: Request, message: string): Promise<Auth> {
  const token = request.headers.get('smileid-token')?.trim()
  const claims = token ? s.tokens.verify(token) : undefined
  if (!claims || !(await s.partners.isActiveKey(claims.partner_id, claims.kid))) throw apiError(401, message)
  return { partnerId: claims.partner_id, keyId: claims.kid, claims }
}
