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
import { FRAUD_REASONS } from '../fraud/fraud-reports.ts'
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
  args: [z.string().describe('An AML job id'), z.string().describe('The person\'s ref in the job\'s people[]')],
  kwargs: documented(z.object({
    news_category: z.enum(NEWS_CATEGORIES),
    page: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 1'),
    limit: z.string().regex(/^\d{1,3}$/).optional().describe('1 to 100, default 25'),
  })),
})

const jpeg = () => z.file().mime(['image/jpeg'])
const selfie = { selfie_image: jpeg().describe('JPEG, checked by content'), liveness_images: z.array(jpeg()).min(6).max(8).describe('6 to 8 repeated parts') }
const flag = () => z.enum(['true', 'false']).optional()
const sandboxResult = z.string().regex(/^\d+(\.0+)?$/).optional().describe('Forces a sandbox outcome (see the README)')
const asyncJob = { ...common, callback_url: z.string().optional().describe('Else the partner\'s default callback URL') }
const documentImage = (what: string) => z.file().mime(['image/jpeg', 'image/png']).describe(`${what}: JPEG or PNG, checked by content`)

export const biometricKycParams = params({
  summary: 'Submit a Biometric KYC job: an ID number and a selfie with liveness frames',
  tags: ['products'],
  kwargs: documented(z.object({ ...idInfo, ...selfie, ...asyncJob, sandbox_result: sandboxResult })),
})

const documentFields = {
  ...selfie,
  ...asyncJob,
  country: z.string().regex(/^[A-Z]{2}$/),
  document: documentImage('The document\'s front'),
  document_back: documentImage('The document\'s back').optional(),
}

export const documentVerificationParams = params({
  summary: 'Submit a Document Verification job',
  tags: ['products'],
  kwargs: documented(z.object({ ...documentFields, id_type: z.string().optional().describe('Classified from the document when missing') })),
})

export const enhancedDocumentVerificationParams = params({
  summary: 'Submit an Enhanced Document Verification job (the document, checked against the ID authority)',
  tags: ['products'],
  kwargs: documented(z.object({ ...documentFields, id_type: z.string(), id_number: z.string().optional() })),
})

export const residencyDocumentVerificationParams = params({
  summary: 'Submit a Residency Document Verification job (passport and visa; SmileID-Partner-ID header required)',
  tags: ['products'],
  kwargs: documented(z.object({ ...documentFields, id_type: z.literal('PASSPORT'), visa: documentImage('The visa page') })),
})

export const registrationParams = params({
  summary: 'Submit a SmartSelfie registration (enrolls the user on clear)',
  tags: ['products'],
  kwargs: documented(z.object({ ...selfie, ...asyncJob, allow_new_enroll: flag(), sandbox_result: sandboxResult })),
})

export const authenticationParams = params({
  summary: 'Submit a SmartSelfie authentication of an enrolled user',
  tags: ['products'],
  kwargs: documented(z.object({
    ...asyncJob,
    user_id: z.string().describe('An enrolled user'),
    selfie_image: selfie.selfie_image.optional().describe('Unless use_enrolled_image'),
    liveness_images: selfie.liveness_images.optional().describe('Unless use_enrolled_image'),
    use_enrolled_image: flag(),
    sandbox_result: sandboxResult,
  })),
})

export const compareParams = params({
  summary: 'Submit a SmartSelfie comparison of a selfie with another image',
  tags: ['products'],
  kwargs: documented(z.object({
    ...asyncJob,
    selfie_image: selfie.selfie_image,
    liveness_images: selfie.liveness_images.optional(),
    comparison_image: jpeg(),
    comparison_image_type: z.enum(['DOCUMENT', 'ID_PHOTO', 'PORTRAIT']),
    allow_new_enroll: flag(),
    sandbox_result: sandboxResult,
  })),
})

export const addressParams = params({
  summary: 'Submit an address verification job (ZA: id_number; NG: utility account)',
  tags: ['products'],
  kwargs: documented(z.object({
    ...asyncJob,
    address: z.string().max(512),
    country: z.enum(['NG', 'ZA']),
    id_number: z.string().optional().describe('ZA'),
    utility_number: z.string().optional().describe('NG'),
    utility_provider: z.string().optional().describe('NG'),
    utility_type: z.enum(['PrePaid', 'PostPaid']).optional().describe('NG'),
  })),
})

const amlFields = {
  ...common,
  countries: jsonPart('An array of 1 to 250 country codes'),
  full_name: z.string().max(256),
  birth_year: z.string().regex(/^\d{4}$/).optional(),
  strict_match: flag().describe('Default true'),
  aliases: jsonPart('An array of at most 20 names').optional(),
}

export const amlParams = params({
  summary: 'Submit a one-time AML screening (202)',
  tags: ['products'],
  kwargs: documented(z.object({ ...amlFields, callback_url: z.string().optional() })),
})

export const amlSyncParams = params({
  summary: 'One-time AML screening, answered inline (SmileID-Idempotency-Key makes a repeat return the first result)',
  tags: ['products'],
  kwargs: documented(z.object({ ...amlFields, callback_url: z.string().optional() })),
})

export const amlMonitoringParams = params({
  summary: 'Submit an AML screening with monitoring',
  tags: ['products'],
  kwargs: documented(z.object({
    ...amlFields,
    full_name: amlFields.full_name.optional().describe('Unless search_existing_user'),
    search_existing_user: flag(),
    callback_url: z.string().optional(),
  })),
})

export const reportFraudParams = params({
  summary: 'Report (or clear) a user as fraudulent: every later job of a flagged user is blocked',
  tags: ['fraud'],
  args: [z.string().describe('A user the partner has submitted a job for')],
  kwargs: documented(z.object({
    is_fraud: z.enum(['true', 'false']),
    reason: z.enum(FRAUD_REASONS).optional().describe('Required when is_fraud is true'),
    notes: z.string().max(500).optional().describe('Required when is_fraud is false, or the reason is OTHER'),
    reported_by: z.string().optional().describe('An email address'),
  })),
})

export const replayParams = params({
  summary: 'Send a decided job\'s result to its callback URL again, freshly signed',
  tags: ['jobs'],
  args: [z.string().describe('A job id')],
})
