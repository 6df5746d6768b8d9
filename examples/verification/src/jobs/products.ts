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

export type Terminal = 'clear' | 'block' | 'attention' | 'error'
export const TERMINAL: readonly string[] = ['clear', 'block', 'attention', 'error']

export interface Outcome {
  status: Terminal
  reason: string | null
  message: string
}
