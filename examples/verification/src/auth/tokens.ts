/** v3 auth tokens: HS256 JWTs with `exp`, issued by POST /v3/token and carried in `SmileID-Token`. */
import { signJwt, verifyJwt } from './jwt.ts'

export const PRODUCTS = [
  'aml',
  'basic_kyc',
  'one_time_aml',
  'biometric_kyc',
  'address_verification',
  'document_verification',
  'enhanced_document_verification',
  'enhanced_kyc',
  'phone_number_verification',
  'smart_selfie_authentication',
  'smart_selfie_registration',
  'smart_selfie_compare',
] as const
export type TokenProduct = (typeof PRODUCTS)[number]

export interface TokenClaims {
  partner_id: string
  /** The API key the token was issued for: it signs this partner's callbacks and sync answers. */
  kid: string
  iat: number
  exp: number
  /** Bitmask of partner security policies; always 0 here. */
  policy: number
  user_id?: string
  product?: string
  partner_params?: Record<string, string>
}

export class TokenService {
  constructor(
    private readonly key: Buffer,
    private readonly ttlSeconds: number,
  ) {}

  async issue(
    partnerId: string,
    keyId: string,
    extra: Pick<TokenClaims, 'user_id' | 'product' | 'partner_params'> = {},
  ): Promise<string> {
    const iat = Math.floor(Date.now() / 1000)
    const claims: TokenClaims = { partner_id: partnerId, kid: keyId, iat, exp: iat + this.ttlSeconds, policy: 0 }
    if (extra.user_id !== undefined) claims.user_id = extra.user_id
    if (extra.product !== undefined) claims.product = extra.product
    if (extra.partner_params !== undefined) claims.partner_params = extra.partner_params
    return signJwt(claims as unknown as Record<string, unknown>, this.key)
  }

  /** The claims of a valid, unexpired token; undefined otherwise. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const check = await verifyJwt(token, this.key)
    if (!check.ok) return undefined
    const c = check.claims
    if (typeof c.partner_id !== 'string' || typeof c.kid !== 'string') return undefined
    return c as unknown as TokenClaims
  }
}
