/** POST /v3/aml, /v3/aml/sync and /v3/aml/monitoring: name screening against sanctions, PEP and news lists. */
import { bool, jsonArray, text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { isCountryCode } from '../reference/countries.ts'
import { checkTokenProduct, readCallbackUrl, readCommonFields } from './common-fields.ts'

export type AmlVariant = 'one_time' | 'sync' | 'monitoring'

export async function readAml(c: ApiController, form: Form, variant: AmlVariant): Promise<Submission> {
  const product = variant === 'monitoring' ? 'aml' : 'one_time_aml'
  checkTokenProduct(c, product)
  const countries = readCountries(form)
  const common = readCommonFields(c, form, { contactMessage: 'Either user_details.email or user_details.phone_number is required.' })
  const search_existing_user = bool(form, 'search_existing_user') ?? false
  let full_name = text(form, 'full_name')?.trim()
  if (!full_name && !(variant === 'monitoring' && search_existing_user)) throw required('full_name')
  if (full_name && full_name.length > 256) throw required('full_name')
  const birth_year = readBirthYear(form, variant)
  const strict_match = readStrictMatch(form)
  const aliases = readAliases(form)
  const bodyUserId = text(form, 'user_id')?.trim()
  if (search_existing_user && !bodyUserId) throw apiError(400, "Required field 'user_id' is missing or invalid when search_existing_user is true.")
  const userId = resolveUserId(c.auth, c.request, bodyUserId)
  if (search_existing_user) {
    if (!(await c.context.jobs.knowsUser(c.auth.partnerId, userId))) throw apiError(404, 'No enrolled user found for this partner.')
    const prior = await c.context.jobs.latestKyc(c.auth.partnerId, userId)
    const u = prior?.request.user_details
    if (!prior || !u || !prior.request.country) throw apiError(404, 'No prior KYC record with a usable name and country was found for this user.')
    full_name ??= `${u.given_names} ${u.last_name}`
  }
  const callbackUrl = variant === 'sync'
    ? await readCallbackUrl(c, form, { required: false })
    : await readCallbackUrl(c, form, { required: true, message: variant === 'one_time' ? "Required field 'callback_url' is missing or invalid." : undefined })
  const request = {
    ...common, countries, full_name: full_name!, strict_match, search_existing_user,
    ...(birth_year !== undefined && { birth_year }), ...(aliases && { aliases }),
  }
  return { product, userId, request, callbackUrl }
}

function readCountries(form: Form): string[] {
  let list: unknown[] | undefined
  try {
    list = jsonArray(form, 'countries')
  } catch {
    throw required('countries')
  }
  if (!list || list.length === 0 || list.length > 250 || !list.every(isCountryCode)) throw required('countries')
  return [...new Set(list as string[])]
}

function readBirthYear(form: Form, variant: AmlVariant): number | undefined {
  const raw = text(form, 'birth_year')?.trim()
  if (raw === undefined) return undefined
  const year = Number(raw)
  if (!/^\d{4}$/.test(raw) || year < 1000 || year > new Date().getUTCFullYear()) {
    throw apiError(400, variant === 'monitoring' ? "Field 'birth_year' must be a four digit year." : "Field 'birth_year' is invalid.")
  }
  return year
}

function readStrictMatch(form: Form): boolean {
  const raw = text(form, 'strict_match')?.trim().toLowerCase()
  if (raw === undefined) return true
  if (raw !== 'true' && raw !== 'false') throw apiError(400, "Field 'strict_match' is invalid.")
  return raw === 'true'
}

function readAliases(form: Form): string[] | undefined {
  let list: unknown[] | undefined
  try {
    list = jsonArray(form, 'aliases')
  } catch {
    throw required('aliases')
  }
  if (!list) return undefined
  if (list.length > 20) throw apiError(400, "Field 'aliases' must contain at most 20 entries.")
  if (!list.every((a) => typeof a === 'string')) throw required('aliases')
  if (list.some((a) => (a as string).length > 256)) throw apiError(400, "Field 'aliases' entries must be at most 256 characters.")
  return (list as string[]).map((a) => a.trim()).filter(Boolean)
}
