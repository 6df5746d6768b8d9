/** POST /v3/users/{user_id}/report_fraud: flags (is_fraud=true) or clears (false) a user known to the partner. */
import { type Accepted, accepted } from 'routeless'
import type { V3NotFound } from '../http/errors.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import type { FraudReason } from './fraud-reports.ts'

/** The multipart body. The published schema takes other fields too (`additionalProperties: true`). */
export interface FraudReportForm {
  /** @errorMessage Field 'is_fraud' is invalid. */
  is_fraud: boolean
  /**
   * Required when is_fraud is true
   * @errorMessage Field 'reason' must be one of: FIRST_PARTY_FRAUD, SECOND_PARTY_FRAUD, THIRD_PARTY_FRAUD, SYNTHETIC_IDENTITY, ACCOUNT_TAKEOVER, DOCUMENT_FORGERY, IDENTITY_FARMING, MULE_ACCOUNT, OTHER.
   */
  reason?: FraudReason
  /**
   * Required when is_fraud is false, or the reason is OTHER
   * @maxLength 500
   * @errorMessage Field 'notes' must be at most 500 characters.
   */
  notes?: string
  /**
   * Who reports it
   * @format email
   * @errorMessage Field 'reported_by' must be a valid email address.
   */
  reported_by: string
  [other: string]: unknown
}

/** The types say each field's shape; the rules between fields are here. */
export async function reportFraud(
  c: ApiController,
  userId: string,
  form: FraudReportForm,
): Promise<Accepted<{ status: 'accepted'; message: string; user_id: string }> | V3NotFound> {
  const isFraud = form.is_fraud
  const reason = isFraud ? form.reason : undefined
  if (isFraud && !reason) throw required('reason')
  const notes = form.notes?.trim() || undefined
  if (!isFraud && !notes) throw apiError(400, "Required field 'notes' is missing or invalid when is_fraud is false.")
  if (reason === 'OTHER' && !notes)
    throw apiError(400, "Required field 'notes' is missing or invalid when reason is 'OTHER'.")
  const reportedBy = form.reported_by
  const { partnerId } = c.auth
  if (!(await c.context.jobs.knowsUser(partnerId, userId))) throw apiError(404, 'User not found')
  await c.context.fraud.add(partnerId, userId, { isFraud, reason: reason ?? null, notes: notes ?? null, reportedBy })
  return accepted({ status: 'accepted' as const, message: 'Fraud report accepted', user_id: userId })
}
