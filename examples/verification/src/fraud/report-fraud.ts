/** POST /v3/users/{user_id}/report_fraud: flags (is_fraud=true) or clears (false) a user known to the partner. */
import { bool, text } from '../forms/fields.ts'
import type { Form } from '../forms/multipart.ts'
import type { ApiController } from '../http/api-controller.ts'
import { apiError, required } from '../http/errors.ts'
import { EMAIL } from '../validation/user-details.ts'
import { FRAUD_REASONS } from './fraud-reports.ts'

export async function reportFraud(c: ApiController, userId: string, form: Form) {
  const isFraud = bool(form, 'is_fraud')
  if (isFraud === undefined) throw required('is_fraud')
  let reason = text(form, 'reason')?.trim()
  if (isFraud) {
    if (!reason) throw required('reason')
    if (!(FRAUD_REASONS as readonly string[]).includes(reason)) throw apiError(400, `Field 'reason' must be one of: ${FRAUD_REASONS.join(', ')}.`)
  } else reason = undefined
  const notes = text(form, 'notes')?.trim()
  if (notes !== undefined && notes.length > 500) throw apiError(400, "Field 'notes' must be at most 500 characters.")
  if (!isFraud && !notes) throw apiError(400, "Required field 'notes' is missing or invalid when is_fraud is false.")
  if (reason === 'OTHER' && !notes) throw apiError(400, "Required field 'notes' is missing or invalid when reason is 'OTHER'.")
  const reportedBy = text(form, 'reported_by')?.trim()
  if (!reportedBy || !EMAIL.test(reportedBy)) throw apiError(400, "Field 'reported_by' must be a valid email address.")
  const { partnerId } = c.auth
  if (!(await c.context.jobs.knowsUser(partnerId, userId))) throw apiError(404, 'User not found')
  await c.context.fraud.add(partnerId, userId, { isFraud, reason: reason ?? null, notes: notes ?? null, reportedBy })
  c.response.status = 202
  return { status: 'accepted', message: 'Fraud report accepted', user_id: userId }
}
