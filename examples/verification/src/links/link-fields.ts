/** The fields of a hosted link, shared by create and update: each one read from the form only when present. */
import { bool, jsonArray, jsonObject, text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import { apiError, invalid, required } from '../http/errors.ts'
import { isCountryCode } from '../reference/countries.ts'
import { findIdType } from '../reference/id-types.ts'
import { documentTypesOf } from '../reference/supported-documents.ts'
import { isValidCallbackUrl } from '../validation/callback-url.ts'
import { isHttpsUrl } from '../validation/consent.ts'
import { checkPartnerParams } from '../validation/partner-params.ts'
import type { LinkIdType } from './hosted-link-store.ts'

export const VERIFICATION_METHODS = ['biometric_kyc', 'doc_verification', 'enhanced_document_verification', 'enhanced_kyc'] as const

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

export function readLinkFields(form: Form): LinkFields {
  const out: LinkFields = {}
  const name = text(form, 'name')
  if (name !== undefined) {
    if (!name.trim() || name.length > 200) throw required('name')
    out.name = name.trim()
  }
  const description = text(form, 'description')
  if (description !== undefined) {
    if (description.length > 1000) throw invalid('description')
    out.description = description.trim() || null
  }
  if (form.id_types !== undefined) out.idTypes = readIdTypes(form)
  const callback = text(form, 'callback_url')
  if (callback !== undefined) {
    if (!isValidCallbackUrl(callback.trim())) throw invalid('callback_url')
    out.callbackUrl = callback.trim()
  }
  const notice = text(form, 'notice_privacy_policy_url')
  if (notice !== undefined) {
    if (!isHttpsUrl(notice.trim())) throw required('notice_privacy_policy_url')
    out.noticePrivacyPolicyUrl = notice.trim()
  }
  const logo = text(form, 'logo_url')
  if (logo !== undefined) {
    if (!isHttpsUrl(logo.trim())) throw invalid('logo_url')
    out.logoUrl = logo.trim()
  }
  const redirect = text(form, 'redirect_url')
  if (redirect !== undefined) {
    if (!isValidCallbackUrl(redirect.trim())) throw invalid('redirect_url')
    out.redirectUrl = redirect.trim()
  }
  const theme = text(form, 'theme_color')
  if (theme !== undefined) {
    if (!/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(theme.trim())) throw invalid('theme_color')
    out.themeColor = theme.trim()
  }
  const expires = text(form, 'expires_at')
  if (expires !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(expires) || Number.isNaN(Date.parse(expires))) throw invalid('expires_at')
    out.expiresAt = new Date(expires).toISOString()
  }
  const params = jsonObject(form, 'partner_params')
  if (params !== undefined) out.partnerParams = checkPartnerParams(params)
  return out
}

/** `[{country, id_type, verification_method}]`, at least one, no other properties, each enabled for its method. */
function readIdTypes(form: Form): LinkIdType[] {
  const list = jsonArray(form, 'id_types')
  if (!list || list.length === 0 || list.length > 50) throw required('id_types')
  return list.map((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw required('id_types')
    const { country, id_type, verification_method, ...rest } = entry as Record<string, unknown>
    if (Object.keys(rest).length || !isCountryCode(country) || typeof id_type !== 'string' || typeof verification_method !== 'string') throw required('id_types')
    if (!(VERIFICATION_METHODS as readonly string[]).includes(verification_method)) throw required('id_types')
    if (!isEnabled(country, id_type, verification_method)) {
      throw apiError(400, `ID type ${id_type} is not enabled for ${verification_method} in ${country}.`)
    }
    return { country, id_type, verification_method }
  })
}

function isEnabled(country: string, idType: string, method: string): boolean {
  if (method === 'doc_verification') return documentTypesOf(country).includes(idType) || findIdType(country, idType) !== undefined
  return findIdType(country, idType)?.products.includes(method) ?? false
}

export function readDisabled(form: Form): boolean | undefined {
  return bool(form, 'is_disabled')
}
