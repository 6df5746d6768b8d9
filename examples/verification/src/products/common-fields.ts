/** The parts every v3 entry endpoint shares: user details, consent, partner params, metadata, user id and the callback. */
import { apiError } from '../http/errors.ts'
import type { ApiController } from '../http/api-controller.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'
import { readConsent, type Consent, type ConsentPart } from '../validation/consent.ts'
import {
  readMetadata,
  readPartnerParams,
  type Metadata,
  type MetadataEntry,
  type PartnerParams,
} from '../validation/partner-params.ts'
import { readUserDetails, type UserDetails, type UserDetailsPart } from '../validation/user-details.ts'

export const CALLBACK_REQUIRED =
  'A valid callback_url is required in the request or a default callback URL must be configured in the portal.'

/**
 * The parts of every v3 product form. The SDKs send each object or list as one part of JSON text, which routeless
 * reads and checks against the part's type.
 */
export interface CommonForm {
  /** `{given_names, last_name, email?, phone_number?}`: an email or a phone number */
  user_details: UserDetailsPart
  /** `{granted: true, granted_at, notice_language, notice_privacy_policy_url}` */
  consent: ConsentPart
  /** Echoed on the result */
  partner_params?: PartnerParams
  /**
   * `[{name, value}]`
   * @json
   */
  metadata?: Metadata
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

/** What a job keeps of the shared parts (routeless has checked their types; the rules between fields are here). */
export function readCommonFields(c: ApiController, form: CommonForm, options: CommonOptions = {}): CommonFields {
  const user_details = readUserDetails(form.user_details, { contactMessage: options.contactMessage })
  const consent = readConsent(form.consent)
  const own = form.partner_params && readPartnerParams(form.partner_params)
  const bound = c.auth.claims.partner_params
  const partner_params = own || bound ? { ...own, ...bound } : undefined
  const metadata = form.metadata && readMetadata(form.metadata)
  return { user_details, consent, ...(partner_params && { partner_params }), ...(metadata && { metadata }) }
}

/**
 * The callback URL: the request's, else the partner's default. `required` (async endpoints) answers 400 when neither
 * exists; an invalid URL in the request always answers 400.
 */
export async function readCallbackUrl(
  c: ApiController,
  form: { callback_url?: string },
  options: { required: boolean; message?: string },
): Promise<string | null> {
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
