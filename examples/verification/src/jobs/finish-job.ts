/**
 * Brings a claimed job to its terminal result: the sandbox decides, the result is stored with its side effects
 * (enrollment, the first callback delivery) in one transaction, and the result is returned.
 */
import { screen, screeningOutcome } from '../aml/screen.ts'
import { DeliveryStore } from '../callbacks/delivery-store.ts'
import { findTestIdentity, identityOutcome } from '../sandbox/identities.ts'
import { decide } from '../sandbox/decide.ts'
import type { Services } from '../services.ts'
import { EnrollmentStore } from './enrollments.ts'
import { JobStore, type Job } from './job-store.ts'
import { PRODUCTS, type Outcome } from './products.ts'
import { buildResult } from './result.ts'
import type { ScreeningEntry } from '../aml/screening-list.ts'

export async function finishJob(s: Services, job: Job, options: { sendCallback: boolean }): Promise<Record<string, unknown>> {
  const flag = await s.fraud.flagOf(job.partnerId, job.userId)
  let outcome: Outcome
  let matches: ScreeningEntry[] | undefined
  if (PRODUCTS[job.product] === 'aml') {
    const r = job.request
    matches = screen({ full_name: r.full_name ?? '', aliases: r.aliases, birth_year: r.birth_year, strict_match: r.strict_match ?? true })
    const identity = findTestIdentity(r.user_details)
    const forced = identity && identityOutcome(identity, job.product, 'aml')
    outcome = flag ? { status: 'block', reason: 'high_risk', message: 'Verification failed.' } : forced ?? screeningOutcome(matches)
  } else {
    const alreadyEnrolled = job.product === 'smart_selfie_registration' && (await s.enrollments.isEnrolled(job.partnerId, job.userId))
    outcome = decide(job.product, job.request, { flagged: flag !== undefined, alreadyEnrolled })
  }
  const completedAt = new Date().toISOString()
  const result = buildResult(job, outcome, { flag, matches, completedAt })
  await s.db.transaction().execute(async (trx) => {
    await new JobStore(trx).complete(job.id, outcome.status, result, completedAt)
    if (outcome.status === 'clear' && enrolls(job)) {
      const selfie = job.request.images?.find((i) => i.field === 'selfie_image')
      await new EnrollmentStore(trx).enroll(job.partnerId, job.userId, job.id, selfie?.sha256 ?? null)
    }
    if (options.sendCallback && job.callbackUrl) await new DeliveryStore(trx).schedule(job.id, job.partnerId, 'callback', job.callbackUrl)
  })
  if (options.sendCallback && job.callbackUrl) s.wake()
  return result
}

/** Registration and biometric KYC enroll on success; compare enrolls when the partner named the user. */
function enrolls(job: Job): boolean {
  if (job.product === 'smart_selfie_registration' || job.product === 'biometric_kyc') return true
  return job.product === 'smart_selfie_compare' && job.request.enroll === true
}
