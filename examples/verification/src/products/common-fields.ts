/** The fields every v3 entry endpoint shares: user details, consent, partner params, metadata and the callback. */
import { text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError } from '../http/errors.ts'
import type { Product } from '../jobs/products.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'
import { readConsent, type Consent } from '../validation/consent.ts'
import { readMetadata, readPartnerParams, type MetadataEntry } from '../validation/partner-params.ts'
import { readUserDetails, type UserDetails } from '../validation/user-details.ts'

export const CALLBACK_REQUIRED = 'A valid callback_url is required in the request or a default callback URL must be configured in the portal.'

export interface CommonFields {
  user_details: UserDetails
  consent: Consent
  partner_params?: Record<string, string>
  metadata?: MetadataEntry[]
}

export interface CommonOptions {
  contactMessage?: string
}

export function readCommonFields(c: ApiController, form: Form, options: CommonOptions = {}): CommonFields {
  const user_details = readUserDetails(form, { contactMessage: options.contactMessage })
  const consent = readConsent(form)
  const own = readPartnerParams(form)
  const bound = c.auth.claims.partner_params
  const partner_params = own || bound ? { ...own, ...bound } : undefined
  const metadata = readMetadata(form)
  return { user_details, consent, ...(partner_params && { partner_params }), ...(metadata && { metadata }) }
}

/**
 * The callback URL: the request's, else the partner's default. `required` (async endpoints) answers 400 when neither
 * exists; an invalid URL in the request always answers 400.
 */
export async function readCallbackUrl(c: ApiController, form: Form, options: { required: boolean; message?: string }): Promise<string | null> {
  const message = options.message ?? CALLBACK_REQUIRED
  const given = text(form, 'callback_url')?.trim()
  if (given !== undefined) {
    if (!isValidCallbackUrl(given)) throw apiError(400, message)
    return given
  }
  const partner = await c.context.partners.find(c.auth.partnerId)
  if (partner?.callbackUrl) return partner.callbackUrl
  if (options.required) throw apiError(400, message)
  return null
}

/** A token scoped to one product is refused on the others. */
export function checkTokenProduct(c: ApiController, product: Product): void {
  const scoped = c.auth.claims.product
  if (scoped !== undefined && scoped !== product) throw apiError(403, 'Token is not authorized for this product.')
}
