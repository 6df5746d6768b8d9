/**
 * POST /v3/token: `smileid-partner-id` + `smileid-api-key` headers (no HMAC) → `{token}`. An optional multipart body
 * binds `user_id`, `partner_params` and a `product` scope into the token.
 */
import type { OpenController } from '../http/open-controller.ts'
import { apiError } from '../http/errors.ts'
import { readPartnerParams, type PartnerParams } from '../validation/partner-params.ts'
import { normalisePartnerId } from './partners.ts'
import type { TokenProduct } from './tokens.ts'

const UNAUTHORIZED = 'Invalid authentication credentials.'

/** The optional multipart body. */
export interface TokenForm {
  /**
   * Binds the token to this user (else the `SmileID-User-ID` header's)
   * @pattern ^([A-Za-z0-9._:@-]{1,128})?$
   * @errorMessage Field 'user_id' is invalid.
   */
  user_id?: string
  /**
   * Scopes the token to one product
   * @errorMessage Field 'product' is invalid.
   */
  product?: TokenProduct
  /** Bound into the token */
  partner_params?: PartnerParams
  /**
   * The PII-reference binding: not supported by this server (a 400 says so)
   * @errorMessage Field 'payload' is not supported by this server: send the fields in each request instead.
   */
  payload?: never
}

export async function issueToken(c: OpenController, form: TokenForm): Promise<{ token: string }> {
  const s = c.context
  const rawPartner = c.headers.get('smileid-partner-id')
  if (!rawPartner?.trim()) throw apiError(400, 'smileid-partner-id header is required.')
  const partnerId = normalisePartnerId(rawPartner)
  const apiKey = c.headers.get('smileid-api-key')?.trim()
  const keyId = partnerId && apiKey ? await s.partners.authenticate(partnerId, apiKey) : undefined
  if (!partnerId || !keyId) throw apiError(401, UNAUTHORIZED)
  const userId = form.user_id || c.headers.get('smileid-user-id')?.trim() || undefined
  const partner_params = form.partner_params && readPartnerParams(form.partner_params)
  return { token: await s.tokens.issue(partnerId, keyId, { user_id: userId, product: form.product, partner_params }) }
}
