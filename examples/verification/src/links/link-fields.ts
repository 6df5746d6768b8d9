/** The parts of a hosted link, shared by create and update: their types, and the rules a type cannot say. */
import type { CountryCode, HttpsUrl, UserId } from '../forms/field-types.ts'
import { apiError, invalid, required } from '../http/errors.ts'
import { isCountryCode } from '../reference/countries.ts'
import { findIdType } from '../reference/id-types.ts'
import { documentTypesOf } from '../reference/supported-documents.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'
import { readPartnerParams, type PartnerParams } from '../validation/partner-params.ts'
import type { LinkIdType } from './hosted-link-store.ts'

export const VERIFICATION_METHODS = [
  'biometric_kyc',
  'doc_verification',
  'enhanced_document_verification',
  'enhanced_kyc',
] as const

/**
 * A link's name: up to 200 characters, not blank.
 * @maxLength 200
 * @pattern \S
 */
export type LinkName = string

/**
 * A document the link offers, enabled for its method.
 * @errorMessage Required field 'id_types' is missing or invalid.
 */
export interface LinkIdTypePart {
  country: CountryCode
  id_type: string
  verification_method: (typeof VERIFICATION_METHODS)[number]
}

/**
 * 1 to 50 documents.
 * @minItems 1
 * @maxItems 50
 * @errorMessage Required field 'id_types' is missing or invalid.
 */
export type LinkIdTypes = LinkIdTypePart[]

/** The parts of a hosted link that create and update share. */
export interface LinkParts {
  name?: LinkName
  /**
   * @maxLength 1000
   * @errorMessage Field 'description' is invalid.
   */
  description?: string
  /**
   * `[{country, id_type, verification_method}]`, each enabled for its method
   * @json
   */
  id_types?: LinkIdTypes
  /**
   * Else the partner's default callback URL
   * @errorMessage Field 'callback_url' is invalid.
   */
  callback_url?: string
  notice_privacy_policy_url?: HttpsUrl
  /** @errorMessage Field 'logo_url' is invalid. */
  logo_url?: HttpsUrl
  /** @errorMessage Field 'redirect_url' is invalid. */
  redirect_url?: string
  /**
   * @pattern ^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$
   * @errorMessage Field 'theme_color' is invalid.
   */
  theme_color?: string
  /** @errorMessage Field 'expires_at' is invalid. */
  expires_at?: Date
  /** Echoed on the link's jobs */
  partner_params?: PartnerParams
}

/** `POST /v3/hosted_links`. */
export interface CreateLinkForm extends LinkParts {
  name: LinkName
  /**
   * `[{country, id_type, verification_method}]`, each enabled for its method
   * @json
   */
  id_types: LinkIdTypes
  notice_privacy_policy_url: HttpsUrl
  /** @errorMessage Field 'is_single_use' is invalid. */
  is_single_use: boolean
  /** Single-use links only */
  user_id?: UserId
}

/** `PUT /v3/hosted_links/{refId}`: any of the shared parts, and `is_disabled`. */
export interface UpdateLinkForm extends LinkParts {
  /** @errorMessage Field 'is_disabled' is invalid. */
  is_disabled?: boolean
  /**
   * Fixed at creation: sending it is a 400
   * @errorMessage Field 'is_single_use' cannot be changed.
   */
  is_single_use?: never
  /**
   * Fixed at creation: sending it is a 400
   * @errorMessage Field 'user_id' cannot be changed.
   */
  user_id?: never
}

export interface LinkFields {
  name?: string
  description?: string | null
  idTypes?: LinkIdType[]
  callbackUrl?: string | null
  noticePrivacyPolicyUrl?: string
  logoUrl?: string | null
  redirectUrl?: string | null
  themeColor?: string | null
  expiresAt?: string | null
  partnerParams?: Record<string, string> | null
}

/** The fields the parts give (their types checked by routeless); what a type cannot say is checked here. */
export function readLinkFields(parts: LinkParts): LinkFields {
  const out: LinkFields = {}
  if (parts.name !== undefined) out.name = parts.name.trim()
  if (parts.description !== undefined) out.description = parts.description.trim() || null
  if (parts.id_types !== undefined) out.idTypes = readIdTypes(parts.id_types)
  if (parts.callback_url !== undefined) {
    if (!isValidCallbackUrl(parts.callback_url)) throw invalid('callback_url')
    out.callbackUrl = parts.callback_url
  }
  if (parts.notice_privacy_policy_url !== undefined) out.noticePrivacyPolicyUrl = parts.notice_privacy_policy_url
  if (parts.logo_url !== undefined) out.logoUrl = parts.logo_url
  if (parts.redirect_url !== undefined) {
    if (!isValidCallbackUrl(parts.redirect_url)) throw invalid('redirect_url')
    out.redirectUrl = parts.redirect_url
  }
  if (parts.theme_color !== undefined) out.themeColor = parts.theme_color
  if (parts.expires_at !== undefined) out.expiresAt = parts.expires_at.toISOString()
  if (parts.partner_params !== undefined) out.partnerParams = readPartnerParams(parts.partner_params)
  return out
}

/** Each document must be one the service offers for its method in its country. */
function readIdTypes(list: LinkIdTypes): LinkIdType[] {
  return list.map(({ country, id_type, verification_method }) => {
    if (!isCountryCode(country)) throw required('id_types')
    if (!isEnabled(country, id_type, verification_method)) {
      throw apiError(400, `ID type ${id_type} is not enabled for ${verification_method} in ${country}.`)
    }
    return { country, id_type, verification_method }
  })
}

function isEnabled(country: string, idType: string, method: string): boolean {
  if (method === 'doc_verification')
    return documentTypesOf(country).includes(idType) || findIdType(country, idType) !== undefined
  return findIdType(country, idType)?.products.includes(method) ?? false
}
