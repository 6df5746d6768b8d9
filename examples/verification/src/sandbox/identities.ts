/**
 * The published v3 sandbox test identities, matched on given names + last name + email (case-insensitive), with the
 * outcome each one forces per product family. Entries marked "ours" fill families the sources leave open.
 */
import type { Family, Outcome, Product } from '../jobs/products.ts'

type Rule = Omit<Outcome, 'message'> & { message: string }
const clear: Rule = { status: 'clear', reason: null, message: 'Verification successful' }
const block = (reason: string, message: string): Rule => ({ status: 'block', reason, message })
const error = (reason: string, message: string): Rule => ({ status: 'error', reason, message })
const attention = (reason: string, message: string): Rule => ({ status: 'attention', reason, message })

const HIGH_RISK = block('high_risk', 'Verification failed')
const NOT_FOUND = block('identifier_not_found', 'Verification failed: Unable to validate ID - Not Found')
const UNAVAILABLE = error('service_unavailable', 'Error: external service unavailable')
const FACE = block('face_verification_failed', 'Verification failed: face does not match')
const SPOOF = block('spoof_detected', 'Verification failed: spoof detected')
const UNUSABLE = error('image_unavailable_or_invalid', 'Error: <image_type_list> image(s) are unusable')
const INTERNAL = error('internal_error', 'Error: verification could not be completed at this time')

export interface TestIdentity {
  given_names: string | null
  last_name: string
  email: string | null
  outcomes: Partial<Record<Family | Product, Rule>>
}

export const TEST_IDENTITIES: readonly TestIdentity[] = [
  {
    given_names: 'Amina Fatou',
    last_name: 'Clearwater',
    email: 'amina.clearwater@example.com',
    outcomes: { kyc: clear, biometric_kyc: clear, document: clear, selfie: clear, address: clear },
  },
  {
    given_names: 'Rashid Omar',
    last_name: 'Dangerfield',
    email: 'rashid.dangerfield@example.com',
    outcomes: {
      kyc: HIGH_RISK,
      biometric_kyc: HIGH_RISK,
      selfie: HIGH_RISK,
      address: block('name_mismatch', 'Verification failed: name does not match the address record'),
    },
  },
  {
    given_names: 'Fatima Bello',
    last_name: 'Ghostwell',
    email: 'fatima.ghostwell@example.com',
    outcomes: {
      kyc: NOT_FOUND,
      biometric_kyc: NOT_FOUND,
      address: block('identifier_not_found', 'Verification failed: Unable to validate ID - Not Found'),
    },
  },
  {
    given_names: 'Aisha Lawal',
    last_name: 'Youngblood',
    email: 'aisha.youngblood@example.com',
    outcomes: {
      kyc: block('age_requirement_not_met', 'Verification failed: Customer must be above 18'),
      address: attention('information_outdated', 'Verification successful: the address record is older than 6 months'),
    },
  },
  {
    given_names: 'Ngozi Ifeoma',
    last_name: 'Downsworth',
    email: 'ngozi.downsworth@example.com',
    outcomes: {
      kyc: UNAVAILABLE,
      biometric_kyc: UNAVAILABLE,
      address: UNAVAILABLE,
      aml: error('service_unavailable', 'Error: external service unavailable.'),
    },
  },
  {
    given_names: 'Obinna Chukwu',
    last_name: 'Twinley',
    email: 'obinna.twinley@example.com',
    outcomes: {
      biometric_kyc: FACE,
      selfie: FACE,
      address: block(
        'address_out_of_range',
        'Verification failed: the closest address on record is more than 1 km away',
      ),
    },
  },
  {
    given_names: 'Taiwo Adeyemi',
    last_name: 'Masquero',
    email: 'taiwo.masquero@example.com',
    outcomes: { biometric_kyc: SPOOF, selfie: SPOOF },
  },
  {
    given_names: 'Kofi Mensah',
    last_name: 'Blurton',
    email: 'kofi.blurton@example.com',
    outcomes: { biometric_kyc: UNUSABLE, selfie: UNUSABLE },
  },
  {
    given_names: 'Chidinma Obi',
    last_name: 'Glitchford',
    email: 'chidinma.glitchford@example.com',
    outcomes: { biometric_kyc: INTERNAL, selfie: INTERNAL },
  },
  {
    given_names: null,
    last_name: 'Lockhart',
    email: null,
    outcomes: { smart_selfie_authentication: block('account_locked', 'Verification failed: account locked') },
  },
  {
    given_names: 'Ade Ogundimu',
    last_name: 'Forgeman',
    email: 'ade.forgeman@example.com',
    outcomes: { document: block('document_check_failed', 'Verification failed: document checks failed') },
  },
  {
    given_names: 'Olumide Fashola',
    last_name: 'Oddpaper',
    email: 'olumide.oddpaper@example.com',
    outcomes: { document: block('unsupported_document', 'Verification failed: unsupported document') },
  },
  {
    given_names: 'Adaeze Nnamdi',
    last_name: 'Xeroxley',
    email: 'adaeze.xeroxley@example.com',
    outcomes: { document: attention('document_copy_detected', 'Verification successful') },
  },
  {
    given_names: 'Tunde Bakare',
    last_name: 'Oldfield',
    email: 'tunde.oldfield@example.com',
    outcomes: { document: attention('document_expired', 'Verification successful: the document has expired') },
  },
  {
    given_names: 'Segun Olawale',
    last_name: 'Puzzleton',
    email: 'segun.puzzleton@example.com',
    outcomes: { document: error('document_unclassifiable', 'Error: document could not be classified') },
  },
  {
    given_names: 'Ifeanyi Okeke',
    last_name: 'Missingley',
    email: 'ifeanyi.missingley@example.com',
    outcomes: {
      enhanced_document_verification: block('identifier_not_found', 'Verification failed: ID number not found'),
    },
  },
  {
    given_names: 'Wale Oladipo',
    last_name: 'Badnumber',
    email: 'wale.badnumber@example.com',
    outcomes: { enhanced_document_verification: error('invalid_id_number', 'Verification failed: invalid id number') },
  },
]

const same = (a: string | undefined, b: string) =>
  (a ?? '').trim().replace(/\s+/g, ' ').toLowerCase() === b.toLowerCase()

export function findTestIdentity(
  user: { given_names?: string; last_name?: string; email?: string } | undefined,
): TestIdentity | undefined {
  if (!user) return undefined
  return TEST_IDENTITIES.find(
    (t) =>
      same(user.last_name, t.last_name) &&
      (t.given_names === null || same(user.given_names, t.given_names)) &&
      (t.email === null || same(user.email, t.email)),
  )
}

/** The identity's forced outcome for this product: the product's own rule first, then its family's. */
export function identityOutcome(identity: TestIdentity, product: Product, family: Family): Rule | undefined {
  return identity.outcomes[product] ?? identity.outcomes[family]
}
