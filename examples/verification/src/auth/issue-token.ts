/**
 * POST /v3/token: `smileid-partner-id` + `smileid-api-key` headers (no HMAC) → `{token}`. An optional multipart body
 * binds `user_id`, `partner_params` and a `product` scope into the token.
 */
import { jsonObject, text } from '../forms/fields.ts'
import { multipartForm } from '../forms/multipart.ts'
import type { OpenController } from '../http/open-controller.ts'
import { apiError, invalid } from '../http/errors.ts'
import { checkPartnerParams } from '../validation/partner-params.ts'
import { normalisePartnerId } from './partners.ts'
import { PRODUCTS } from './tokens.ts'

const UNAUTHORIZED = 'Invalid authentication credentials.'

export async function issueToken(c: OpenController): Promise<{ token: string }> {
  const s = c.context
  const rawPartner = c.request.headers.get('smileid-partner-id')
  if (!rawPartner?.trim()) throw apiError(400, 'smileid-partner-id header is required.')
  const partnerId = normalisePartnerId(rawPartner)
  const apiKey = c.request.headers.get('smileid-api-key')?.trim()
  const keyId = partnerId && apiKey ? await s.partners.authenticate(partnerId, apiKey) : undefined
  if (!partnerId || !keyId) throw apiError(401, UNAUTHORIZED)
  const form = multipartForm(c, { optional: true })
  if (form.payload !== undefined) throw apiError(400, "Field 'payload' is not supported by this server: send the fields in each request instead.")
  const userId = text(form, 'user_id')?.trim() || c.request.headers.get('smileid-user-id')?.trim() || undefined
  if (userId !== undefined && !/^[A-Za-z0-9._:@-]{1,128}$/.test(userId)) throw invalid('user_id')
  const product = text(form, 'product')?.trim()
  if (product !== undefined && !(PRODUCTS as readonly string[]).includes(product)) throw invalid('product')
  const params = jsonObject(form, 'partner_params')
  const partner_params = params ? checkPartnerParams(params) : undefined
  return { token: s.tokens.issue(partnerId, keyId, { user_id: userId, product, partner_params }) }
}
