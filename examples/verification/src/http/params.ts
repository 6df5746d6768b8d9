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
import { PRODUCTS } from '../auth/tokens.ts'
import { FRAUD_REASONS } from '../fraud/fraud-reports.ts'

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

