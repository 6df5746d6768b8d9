/**
 * `sandbox_result` forces an outcome: the v3 form field on biometric products, or the legacy string in
 * `partner_params.sandbox_result`. 0/1/2 are the legacy approval/rejection/provisional; the rest are result codes (0840, 1220… and unknown codes clear).
 */
import type { Outcome } from '../jobs/products.ts'

const BLOCK_CODES = new Set([1, 841, 821, 811, 1013, 1022])

export function sandboxResultOutcome(code: number, verb: 'Verification' | 'Enrollment'): Outcome {
  if (BLOCK_CODES.has(code)) return { status: 'block', reason: 'sandbox_result', message: `${verb} failed` }
  if (code === 2) return { status: 'attention', reason: 'sandbox_result', message: `${verb} requires review` }
  if (code === 1015)
    return { status: 'error', reason: 'service_unavailable', message: 'Error: external service unavailable' }
  return { status: 'clear', reason: null, message: `${verb} successful` }
}

/** The code from the form field, else from `partner_params.sandbox_result` ("0", "1", "2", "0840"…). */
export function sandboxResultCode(
  field: number | undefined,
  partnerParams: Record<string, string> | undefined,
): number | undefined {
  if (field !== undefined) return field
  const legacy = partnerParams?.sandbox_result
  return legacy !== undefined && /^\d{1,4}$/.test(legacy) ? Number(legacy) : undefined
}
