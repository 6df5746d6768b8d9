/**
 * The parameter schemas of the handlers (`static params`): routeless validates the path and query parameters that a
 * schema can judge with the contract's own messages (the job id of /v3/status, the public catalogue's filters) —
 * the error renderers send the first failing parameter's reason as the message — and reads every schema's JSON
 * Schema for the OpenAPI document (`GET /openapi.json`).
 *
 * The multipart bodies, and the queries whose rules need the reference data or share a handler with another rule
 * (`/v3/hosted_links` lists and fetches), are declared with `documented(…)`: routeless documents them but the
 * handlers validate them, in the contract's order and with its messages (src/forms, src/products, src/links).
 */
import { params, type StandardSchemaV1 } from 'routeless'
import { z } from 'zod'
import { NEWS_CATEGORIES } from '../aml/screening-list.ts'
import { PRODUCTS } from '../auth/tokens.ts'
import { JOB_ID, JOB_ID_MESSAGE } from '../jobs/job-status.ts'
import { VERIFICATION_METHODS } from '../links/link-fields.ts'
import { COUNTRY_MESSAGE } from '../reference/catalogue.ts'
import { CONTINENTS, LOCALES } from '../reference/supported-documents.ts'

/**
 * `schema` as routeless sees it: its JSON Schema for OpenAPI, and a validation that lets every value through as it
 * is (the handler validates). Declared query values stay strings: routeless converts them only to the types a
 * schema names, and these name none but strings for the query.
 */
export function documented<S extends StandardSchemaV1>(schema: S): S {
  const standard = schema['~standard'] as StandardSchemaV1['~standard'] & { jsonSchema?: unknown }
  return {
    '~standard': { version: standard.version, vendor: standard.vendor, jsonSchema: standard.jsonSchema, validate: (value: unknown) => ({ value }) },
  } as unknown as S
}

// ---- validated by routeless -------------------------------------------------------------------------------------

const countryFilter = z.string({ error: COUNTRY_MESSAGE }).regex(/^([A-Z]{2})?$/, COUNTRY_MESSAGE).optional()
  .describe('ISO 3166-1 alpha-2 country code (two upper-case letters)')

export const jobStatusParams = params({
  summary: 'The status of a job: 202 while processing, 200 once decided, 404 (as data) when unknown',
  tags: ['jobs'],
  args: [z.string().regex(JOB_ID, JOB_ID_MESSAGE).describe("A job id: a TypeID with prefix 'job_'")],
})

export const bankCodesParams = params({
  summary: 'Bank codes, optionally of one country (no token)',
  tags: ['catalogue'],
  kwargs: z.object({ country: countryFilter }),
})

export const supportedIdTypesParams = params({
  summary: 'Supported ID types, optionally of one country (no token)',
  tags: ['catalogue'],
  kwargs: z.object({ country: countryFilter }),
})

export const supportedDocumentsParams = params({
  summary: 'Documents accepted for document verification (no token)',
  tags: ['catalogue'],
  kwargs: z.object({
    continent: z.enum(CONTINENTS, { error: `continent must be one of: ${CONTINENTS.join(', ')}` }).optional(),
    locale: z.enum(LOCALES, { error: `locale must be one of: ${LOCALES.join(', ')}` }).optional().describe('Language of the country names (default en-GB)'),
    country_code: countryFilter,
  }),
})

// ---- documented here, validated by the handlers -----------------------------------------------------------------

const jsonPart = (what: string) => z.string().describe(`${what}, as one part holding JSON`)
const common = {
  user_details: jsonPart('{given_names, last_name, email?, phone_number?}'),
  consent: jsonPart('{granted, granted_at, notice_language, notice_privacy_policy_url}'),
  partner_params: jsonPart('An object of strings').optional(),
  metadata: jsonPart('An array of {name, value}').optional(),
  user_id: z.string().optional().describe('Must agree with the User-ID header and the token'),
}
const idInfo = {
  country: z.string().regex(/^[A-Z]{2}$/),
  id_type: z.string(),
  id_number: z.string(),
  bank_code: z.string().optional().describe('For BANK_ACCOUNT'),
  operator: z.string().optional(),
}

export const enhancedKycParams = params({
  summary: 'Submit an Enhanced KYC job (202; the result goes to callback_url)',
  tags: ['products'],
  kwargs: documented(z.object({ ...idInfo, ...common, callback_url: z.string().optional().describe('Else the partner\'s default callback URL') })),
})

export const enhancedKycSyncParams = params({
  summary: 'Enhanced KYC, answered inline (signed like a callback)',
  tags: ['products'],
  kwargs: documented(z.object({ ...idInfo, ...common })),
})

export const tokenParams = params({
  summary: 'Issue a SmileID-Token for the smileid-partner-id and smileid-api-key headers',
  tags: ['auth'],
  kwargs: documented(z.object({
    user_id: z.string().optional().describe('Binds the token to this user'),
    product: z.enum(PRODUCTS).optional().describe('Scopes the token to one product'),
    partner_params: jsonPart('An object of strings, bound into the token').optional(),
  })),
})

const linkFields = {
  name: z.string().max(200),
  description: z.string().max(1000).optional(),
  id_types: jsonPart(`An array of {country, id_type, verification_method: ${VERIFICATION_METHODS.join(' | ')}}`),
  callback_url: z.string().optional(),
  notice_privacy_policy_url: z.string().describe('An https URL'),
  logo_url: z.string().optional(),
  redirect_url: z.string().optional(),
  theme_color: z.string().optional(),
  expires_at: z.string().optional().describe('ISO 8601 date-time'),
  partner_params: jsonPart('An object of strings').optional(),
}

export const hostedLinksGetParams = params({
  summary: 'List the hosted links (page, limit; newest first), or fetch one by ref_id',
  tags: ['hosted links'],
  args: [z.string().describe('The link\'s ref_id (a UUID)')],
  kwargs: documented(z.object({
    page: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 1'),
    limit: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 25'),
  })),
})

export const hostedLinksCreateParams = params({
  summary: 'Create a hosted link (201)',
  tags: ['hosted links'],
  kwargs: documented(z.object({
    ...linkFields,
    is_single_use: z.enum(['true', 'false']),
    user_id: z.string().optional().describe('Single-use links only'),
  })),
})

export const hostedLinksUpdateParams = params({
  summary: 'Change some fields of a hosted link',
  tags: ['hosted links'],
  args: [z.string().describe('The link\'s ref_id (a UUID)')],
  kwargs: documented(z.object({
    ...Object.fromEntries(Object.entries(linkFields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof linkFields]: z.ZodOptional<(typeof linkFields)[K]> },
    is_disabled: z.enum(['true', 'false']).optional(),
  })),
})

export const idStatusParams = params({
  summary: 'Availability of an ID authority (token required)',
  tags: ['catalogue'],
  kwargs: documented(z.object({ country: z.string().describe('Country code or name'), id_type: z.string() })),
})

export const amlNewsParams = params({
  summary: 'News articles about one person an AML job matched',
  tags: ['products'],
  args: [z.string().describe('An AML job id'), documented(z.literal('news')), z.string().describe('The person\'s ref in the job\'s people[]')],
  kwargs: documented(z.object({
    news_category: z.enum(NEWS_CATEGORIES),
    page: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 1'),
    limit: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 25'),
  })),
})
