/** POST /v3/aml, /v3/aml/sync and /v3/aml/monitoring: name screening against sanctions, PEP and news lists. */
import type { CountryCode } from '../forms/field-types.ts'
import type { Submission } from '../http/accept-job.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { resolveUserId } from '../http/user-id.ts'
import { isCountryCode } from '../reference/countries.ts'
import { readCallbackUrl, readCommonFields, type CommonForm } from './common-fields.ts'

export type AmlVariant = 'one_time' | 'sync' | 'monitoring'

/** The form of the three AML routes. */
export interface AmlForm extends CommonForm {
  /**
   * 1 to 250 ISO 3166-1 alpha-2 codes, as one part of JSON text (`["NG","GH"]`)
   * @json
   * @minItems 1
   * @maxItems 250
   * @errorMessage Required field 'countries' is missing or invalid.
   */
  countries: CountryCode[]
  /**
   * Unless search_existing_user (monitoring)
   * @maxLength 256
   */
  full_name?: string
  /**
   * Four digits, 1000 to this year
   * @pattern ^\d{4}$
   * @errorMessage Field 'birth_year' is invalid.
   */
  birth_year?: string
  /**
   * Default true; echoed in the result
   * @errorMessage Field 'strict_match' is invalid.
   */
  strict_match?: boolean
  /**
   * Other names to screen, as one part of JSON text (`["J. Doe"]`)
   * @json
   * @maxItems 20
   * @errorMessage {"maxItems": "Field 'aliases' must contain at most 20 entries.", "type": "Required field 'aliases' is missing or invalid."}
   */
  aliases?: AliasName[]
  /**
   * Screen the enrolled user named by user_id, with the name of their last KYC
   * @errorMessage Field 'search_existing_user' is invalid.
   */
  search_existing_user?: boolean
  /** The SDK's name (also sent as a header) */
  source_sdk?: string
  source_sdk_version?: string
}

/**
 * Another name for the person screened.
 * @maxLength 256
 * @errorMessage {"maxLength": "Field 'aliases' entries must be at most 256 characters.", "type": "Required field 'aliases' is missing or invalid."}
 */
export type AliasName = string

/** `/v3/aml/monitoring` words a malformed year its own way. */
export interface AmlMonitoringForm extends AmlForm {
  /**
   * Four digits, 1000 to this year
   * @pattern ^\d{4}$
   * @errorMessage Field 'birth_year' must be a four digit year.
   */
  birth_year?: string
}

/** The types say each part's shape; the rules between parts, the lists' contents and the lookups are here. */
export async function readAml(c: ApiController, form: AmlForm, variant: AmlVariant): Promise<Submission> {
  const product = variant === 'monitoring' ? 'aml' : 'one_time_aml'
  const countries = readCountries(form.countries)
  const common = readCommonFields(c, form, {
    contactMessage: 'Either user_details.email or user_details.phone_number is required.',
  })
  const search_existing_user = form.search_existing_user ?? false
  let full_name = form.full_name?.trim() || undefined
  if (!full_name && !(variant === 'monitoring' && search_existing_user)) throw required('full_name')
  const birth_year = readBirthYear(form.birth_year, variant)
  const strict_match = form.strict_match ?? true
  const aliases = readAliases(form.aliases)
  const bodyUserId = form.user_id?.trim() || undefined
  if (search_existing_user && !bodyUserId)
    throw apiError(400, "Required field 'user_id' is missing or invalid when search_existing_user is true.")
  const userId = resolveUserId(c.auth, c.headers, bodyUserId)
  if (search_existing_user) {
    if (!(await c.context.jobs.knowsUser(c.auth.partnerId, userId)))
      throw apiError(404, 'No enrolled user found for this partner.')
    const prior = await c.context.jobs.latestKyc(c.auth.partnerId, userId)
    const u = prior?.request.user_details
    if (!prior || !u || !prior.request.country)
      throw apiError(404, 'No prior KYC record with a usable name and country was found for this user.')
    full_name ??= `${u.given_names} ${u.last_name}`
  }
  const callbackUrl =
    variant === 'sync'
      ? await readCallbackUrl(c, form, { required: false })
      : await readCallbackUrl(c, form, {
          required: true,
          message: variant === 'one_time' ? "Required field 'callback_url' is missing or invalid." : undefined,
        })
  const request = {
    ...common,
    countries,
    full_name: full_name!,
    strict_match,
    search_existing_user,
    ...(birth_year !== undefined && { birth_year }),
    ...(aliases && { aliases }),
  }
  return { product, userId, request, callbackUrl }
}

/** Codes of countries the service screens, each once. */
function readCountries(codes: CountryCode[]): string[] {
  if (!codes.every(isCountryCode)) throw required('countries')
  return [...new Set(codes)]
}

/** The year's range moves with the calendar, so it is checked here. */
function readBirthYear(raw: string | undefined, variant: AmlVariant): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const year = Number(raw)
  if (year < 1000 || year > new Date().getUTCFullYear()) {
    throw apiError(
      400,
      variant === 'monitoring' ? "Field 'birth_year' must be a four digit year." : "Field 'birth_year' is invalid.",
    )
  }
  return year
}

function readAliases(aliases: AliasName[] | undefined): string[] | undefined {
  return aliases?.map((a) => a.trim()).filter(Boolean)
}
