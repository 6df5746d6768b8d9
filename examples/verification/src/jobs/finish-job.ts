/**
 * Brings a job to its terminal result: the sandbox decides, the result is stored with its side effects (enrollment,
 * the first callback delivery) in one transaction — the queue's fenced completion when a worker holds the job, so a
 * worker that lost it stores nothing — and the result is returned (undefined when nothing was stored).
 */
import { screen, screeningOutcome } from '../aml/screen.ts'
import type { Effects } from '@routeless/example-kit'
import type { Transaction } from 'kysely'
import type { Database } from '../storage/schema.ts'
import { findTestIdentity, identityOutcome } from '../sandbox/identities.ts'
import { decide } from '../sandbox/decide.ts'
import type { Services } from '../services.ts'
import { EnrollmentStore } from './enrollments.ts'
import { JobStore, type Job } from './job-store.ts'
import { PRODUCTS, type Outcome } from './products.ts'
import { buildResult } from './result.ts'
import type { ScreeningEntry } from '../aml/screening-list.ts'

export interface FinishOptions {
  sendCallback: boolean
  /** Runs the effects in a transaction; false when they must not be applied (default: a plain transaction). */
  commit?: (effects: Effects) => Promise<boolean>
}

export async function finishJob(
  s: Services,
  job: Job,
  options: FinishOptions,
): Promise<Record<string, unknown> | undefined> {
  const flag = await s.fraud.flagOf(job.partnerId, job.userId)
  let outcome: Outcome
  let matches: ScreeningEntry[] | undefined
  if (PRODUCTS[job.product] === 'aml') {
    const r = job.request
    matches = screen({
      full_name: r.full_name ?? '',
      aliases: r.aliases,
      birth_year: r.birth_year,
      strict_match: r.strict_match ?? true,
    })
    const identity = findTestIdentity(r.user_details)
    const forced = identity && identityOutcome(identity, job.product, 'aml')
    outcome = flag
      ? { status: 'block', reason: 'high_risk', message: 'Verification failed.' }
      : (forced ?? screeningOutcome(matches))
  } else {
    const alreadyEnrolled =
      job.product === 'smart_selfie_registration' && (await s.enrollments.isEnrolled(job.partnerId, job.userId))
    outcome = decide(job.product, job.request, { flagged: flag !== undefined, alreadyEnrolled })
  }
  const completedAt = new Date().toISOString()
  const result = buildResult(job, outcome, { flag, matches, completedAt })
  let stored = false
  const commit =
    options.commit ??
    ((effects: Effects) =>
      s.db
        .transaction()
        .execute(effects)
        .then(() => true))
  const won = await commit(async (queueTrx) => {
    const trx = queueTrx as unknown as Transaction<Database>
    if (!(await new JobStore(trx).complete(job.id, outcome.status, result, completedAt))) return
    stored = true
    if (outcome.status === 'clear' && enrolls(job)) {
      const selfie = job.request.images?.find((i) => i.field === 'selfie_image')
      await new EnrollmentStore(trx).enroll(job.partnerId, job.userId, job.id, selfie?.sha256 ?? null)
    }
    if (options.sendCallback && job.callbackUrl)
      await s.deliveries.schedule(job.id, job.partnerId, 'callback', job.callbackUrl, trx)
  })
  return won && stored ? result : undefined
}

/** Registration and biometric KYC enroll on success; compare enrolls when the partner named the user. */
function enrolls(job: Job): boolean {
  if (job.product === 'smart_selfie_registration' || job.product === 'biometric_kyc') return true
  return job.product === 'smart_selfie_compare' && job.request.enroll === true
}
