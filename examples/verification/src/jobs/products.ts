/** The v3 product names jobs carry, and the sandbox family whose test identities apply to each. */
export const PRODUCTS = {
  enhanced_kyc: 'kyc',
  biometric_kyc: 'biometric_kyc',
  document_verification: 'document',
  enhanced_document_verification: 'document',
  residency_document_verification: 'document',
  smart_selfie_registration: 'selfie',
  smart_selfie_authentication: 'selfie',
  smart_selfie_compare: 'selfie',
  address_verification: 'address',
  one_time_aml: 'aml',
  aml: 'aml',
} as const

export type Product = keyof typeof PRODUCTS
export type Family = (typeof PRODUCTS)[Product]

/** Legacy `job_type` numbers, kept on results for partners migrating from v1/v2. */
export const JOB_TYPES: Partial<Record<Product, number>> = {
  biometric_kyc: 1,
  smart_selfie_authentication: 2,
  smart_selfie_registration: 4,
  enhanced_kyc: 5,
  document_verification: 6,
  enhanced_document_verification: 11,
  one_time_aml: 15,
}

export type Terminal = 'clear' | 'block' | 'attention' | 'error'
export const TERMINAL: readonly string[] = ['clear', 'block', 'attention', 'error']

export interface Outcome {
  status: Terminal
  reason: string | null
  message: string
}
