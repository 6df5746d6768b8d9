/** The parts every v3 entry endpoint shares: user details, consent, partner params, metadata, user id and the callback. */
import { apiError } from '../http/errors.ts'
import type { ApiController } from '../http/api-controller.ts'
import type { JsonPart } from '../forms/field-types.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'
import { readConsent, type Consent } from '../validation/consent.ts'
import { readMetadata, readPartnerParams, type MetadataEntry } from '../validation/partner-params.ts'
import { readUserDetails, type UserDetails } from '../validation/user-details.ts'

export const CALLBACK_REQUIRED = 'A valid callback_url is required in the request or a default callback URL must be configured in the portal.'

/** The parts of every v3 product form (the contract's `user_details`, `consent`, `partner_params`, `metadata`). */
export interface CommonForm {
  /** JSON: `{given_names, last_name, email?, phone_number?}` (an email or a phone number) */
  user_details: JsonPart
  /** JSON: `{granted: true, granted_at, notice_language, notice_privacy_policy_url}` */
  consent: JsonPart
  /** JSON: an object of strings, echoed on the result */
  partner_params?: JsonPart
  /** JSON: an array of `{name, value}` */
  metadata?: JsonPart
  /** Must agree with the User-ID header and the token */
  user_id?: string
  /** Else the partner's default callback URL */
  callback_url?: string
}

export interface CommonFields {
  user_details: UserDetails
  consent: Consent
  partner_params?: Record<string, string>
  metadata?: MetadataEntry[]
}

export interface CommonOptions {
  contactMessage?: string
}

/** The JSON parts, read and checked (routeless checked that each is one text part; their JSON is read here). */
export function readCommonFields(c: ApiController, form: CommonForm, options: CommonOptions = {}): CommonFields {
  const user_details = readUserDetails(form.user_details, { contactMessage: options.contactMessage })
  const consent = readConsent(form.consent)
  const own = readPartnerParams(form.partner_params)
  const bound = c.auth.claims.partner_params
  const partner_params = own || bound ? { ...own, ...bound } : undefined
  const metadata = readMetadata(form.metadata)
  return { user_details, consent, ...(partner_params && { partner_params }), ...(metadata && { metadata }) }
}

/**
 * The callback URL: the request's, else the partner's default. `required` (async endpoints) answers 400 when neither
 * exists; an invalid URL in the request always answers 400.
 */
export async function readCallbackUrl(c: ApiController, form: { callback_url?: string }, options: { required: boolean; message?: string }): Promise<string | null> {
  const message = options.message ?? CALLBACK_REQUIRED
  const given = form.callback_url?.trim()
  if (given) {
    if (!isValidCallbackUrl(given)) throw apiError(400, message)
    return given
  }
  const partner = await c.context.partners.find(c.auth.partnerId)
  if (partner?.callbackUrl) return partner.callbackUrl
  if (options.required) throw apiError(400, message)
  return null
}
