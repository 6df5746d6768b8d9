/**
 * The result payload of a terminal job: one envelope for every product (the callback body, the sync answer, and what
 * replay re-sends). The product-specific keys (`id_fields`, `document`, `additional_documents`, `address`) are ours;
 * AML results follow the published OneTimeAmlCallback.
 */
import type { ScreeningEntry } from '../aml/screening-list.ts'
import { personOf } from '../aml/screen.ts'
import type { FraudFlag } from '../fraud/fraud-reports.ts'
import { legacyDigit } from '../sandbox/decide.ts'
import { echoedPartnerParams } from '../validation/partner-params.ts'
import type { Job } from './job-store.ts'
import type { Outcome } from './products.ts'

export interface ResultFacts {
  flag: FraudFlag | undefined
  matches?: ScreeningEntry[]
  completedAt: string
}

export function buildResult(job: Job, outcome: Outcome, facts: ResultFacts): Record<string, unknown> {
  const r = job.request
  const passed = outcome.status === 'clear' || outcome.status === 'attention'
  const base: Record<string, unknown> = {
    job_id: job.id,
    user_id: job.userId,
    product: job.product,
    status: outcome.status,
    reason: outcome.reason,
    message: outcome.message,
    created_at: job.createdAt,
    completed_at: facts.completedAt,
    partner_params: echoedPartnerParams(r.partner_params),
    kyc_receipt: null,
    user_provided_info: r.user_details
      ? {
          given_names: r.user_details.given_names,
          last_name: r.user_details.last_name,
          email: r.user_details.email ?? null,
          phone_number: r.user_details.phone_number ?? null,
        }
      : null,
    consent: r.consent ?? null,
    antifraud: facts.flag
      ? {
          fraud_risk_level: 'high',
          fraud_risk_score: 100,
          fraud_risk_indicator_groups: [
            {
              group: 'reported_fraud',
              indicators: [facts.flag.reason ?? 'fraud_reported'],
              reported_at: facts.flag.flaggedAt,
            },
          ],
        }
      : null,
    device_signals: null,
  }
  if (r.hosted_link) base.hosted_link = r.hosted_link
  switch (job.product) {
    case 'enhanced_kyc':
    case 'biometric_kyc':
    case 'enhanced_document_verification':
    case 'document_verification':
      base.id_fields = passed ? idFields(job) : null
      if (job.product.includes('document')) base.document = { country: r.country ?? null, id_type: r.id_type ?? null }
      break
    case 'residency_document_verification':
      base.id_fields = passed ? idFields(job) : null
      base.additional_documents = passed ? [visa(job)] : []
      break
    case 'smart_selfie_compare':
      base.comparison_image_type = r.comparison_image_type ?? null
      break
    case 'address_verification':
      base.address = {
        address: r.address ?? null,
        country: r.country ?? null,
        utility_provider: r.utility_provider ?? null,
        utility_type: r.utility_type ?? null,
      }
      break
    case 'one_time_aml':
    case 'aml': {
      const people = outcome.status === 'error' ? [] : (facts.matches ?? []).map(personOf)
      base.strict_match = r.strict_match ?? true
      base.no_of_persons_found = people.length
      base.people = people
      if (outcome.status === 'error') base.device_signals = null
      break
    }
  }
  return base
}

/** What the ID authority would return, taken from what was submitted; test number digit 4 lets partner_params override it. */
function idFields(job: Job): Record<string, unknown> {
  const r = job.request
  const u = r.user_details
  const fields: Record<string, unknown> = {
    full_name: u ? `${u.given_names} ${u.last_name}` : null,
    given_names: u?.given_names ?? null,
    last_name: u?.last_name ?? null,
    dob: u?.dob ?? null,
    gender: u?.gender ?? null,
    id_number: r.id_number ?? null,
    id_type: r.id_type ?? null,
    country: r.country ?? null,
    expiration_date: null,
  }
  const custom = legacyDigit(job.product, r) === 4 ? r.partner_params : undefined
  for (const key of Object.keys(fields)) if (custom?.[key] !== undefined) fields[key] = custom[key]
  return fields
}

function visa(job: Job): Record<string, unknown> {
  const u = job.request.user_details
  const issued = (job.request.consent?.granted_at ?? job.createdAt).slice(0, 10)
  const expiry = new Date(`${issued}T00:00:00Z`)
  expiry.setUTCFullYear(expiry.getUTCFullYear() + 1)
  return {
    image_link: null,
    full_name: u ? `${u.given_names} ${u.last_name}` : null,
    id_number: job.request.id_number ?? null,
    issued_at: job.request.country ?? null,
    issuance_date: issued,
    expiry: { expiry_date: expiry.toISOString().slice(0, 10), expiry_period_in_months: '12' },
    conditions: null,
    no_of_entries: 'multiple',
    document_primary_id: null,
  }
}
