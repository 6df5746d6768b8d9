/**
 * The sandbox decision: from what was submitted and what the service knows about the user, the terminal outcome of a
 * job. Deterministic; the order is fraud flag, enrollment conflict, `sandbox_result`, named test identity, legacy
 * test number, and last an unknown identity (block).
 */
import { findIdType, testNumberDigit } from '../reference/id-types.ts'
import { PRODUCTS, type Outcome, type Product } from '../jobs/products.ts'
import type { JobRequest } from '../jobs/job-request.ts'
import { findTestIdentity, identityOutcome } from './identities.ts'
import { sandboxResultCode, sandboxResultOutcome } from './sandbox-result.ts'

export interface DecisionFacts {
  /** The user is flagged for fraud by a report_fraud call. */
  flagged: boolean
  /** The user is already enrolled (registration only). */
  alreadyEnrolled: boolean
}

const BIOMETRIC: readonly Product[] = [
  'biometric_kyc',
  'smart_selfie_registration',
  'smart_selfie_authentication',
  'smart_selfie_compare',
]

export function decide(product: Product, request: JobRequest, facts: DecisionFacts): Outcome {
  const verb = product === 'smart_selfie_registration' ? 'Enrollment' : 'Verification'
  const say = (o: Outcome): Outcome => ({
    ...o,
    message: o.message.replace(/^Verification/, verb).replace('<image_type_list>', imageTypes(request)),
  })
  if (facts.flagged) return say({ status: 'block', reason: 'high_risk', message: 'Verification failed' })
  if (product === 'smart_selfie_registration' && facts.alreadyEnrolled && !request.allow_new_enroll) {
    return { status: 'block', reason: 'user_already_enrolled', message: 'Enrollment failed: user is already enrolled' }
  }
  const code = sandboxResultCode(
    BIOMETRIC.includes(product) ? request.sandbox_result : undefined,
    request.partner_params,
  )
  if (code !== undefined) return sandboxResultOutcome(code, verb)
  const identity = findTestIdentity(request.user_details)
  if (identity)
    return say(
      identityOutcome(identity, product, PRODUCTS[product]) ?? {
        status: 'clear',
        reason: null,
        message: 'Verification successful',
      },
    )
  const digit = legacyDigit(product, request)
  if (digit === 0 || digit === 4) return say({ status: 'clear', reason: null, message: 'Verification successful' })
  if (digit === 1)
    return say({
      status: 'block',
      reason: 'identifier_not_found',
      message: 'Verification failed: Unable to validate ID - Not Found',
    })
  if (digit === 3)
    return say({ status: 'error', reason: 'service_unavailable', message: 'Error: external service unavailable' })
  if (product === 'address_verification')
    return { status: 'block', reason: 'no_address_on_record', message: 'Verification failed: no address on record' }
  return say({
    status: 'block',
    reason: 'unknown_test_identity',
    message: 'Verification failed: not a sandbox test identity',
  })
}

/** The final digit when the ID (or utility) number is a legacy sandbox test number. */
export function legacyDigit(product: Product, request: JobRequest): number | undefined {
  if (product === 'address_verification' && request.utility_number) {
    return /^0+\d$/.test(request.utility_number) ? Number(request.utility_number.at(-1)) : undefined
  }
  if (!request.country || !request.id_type || !request.id_number) return undefined
  const type = findIdType(request.country, request.id_type)
  return type ? testNumberDigit(type, request.id_number) : undefined
}

/** True when validation must answer 400 for the legacy "invalid format" test number (final digit 2). */
export function isInvalidFormatTestNumber(product: Product, request: JobRequest): boolean {
  return !findTestIdentity(request.user_details) && legacyDigit(product, request) === 2
}

function imageTypes(request: JobRequest): string {
  const kinds = new Set((request.images ?? []).map((i) => i.field.replace(/_images?$/, '').replace('_', ' ')))
  return kinds.size ? [...kinds].join(', ') : 'selfie'
}
