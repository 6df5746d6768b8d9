/**
 * One attempt of a due delivery (a `callback` job of the queue): the job's stored result, byte for byte, signed with
 * fresh `Response-Timestamp` and `Response-Signature` headers. A failure is retried with doubling back-off until the
 * attempts run out. The attempt is recorded in the transaction that completes (or reschedules) the queue job, so a
 * worker that lost the job records nothing. (The POST itself cannot be taken back: while the worker lives its lease is
 * renewed, so no other instance sends the same attempt.)
 */
import type { ClaimedJob } from '@routeless/example-kit'
import { signatureHeaders } from '../auth/sid-signature.ts'
import type { Services } from '../services.ts'
import { DeliveryStore } from './delivery-store.ts'
import { postCallback, type AttemptOutcome } from './post-callback.ts'

export async function deliver(s: Services, queued: ClaimedJob): Promise<void> {
  const { callbackTimeoutMs, callbackAttempts, callbackBackoffMs } = s.config
  const delivery = await s.deliveries.get(queued.ref)
  if (delivery?.state !== 'pending') return void (await queued.complete())
  const job = await s.jobs.get(delivery.job_id)
  const apiKey = job && (await s.partners.signingKey(job.partnerId, job.apiKeyId))
  const attempt = Number(delivery.attempts) + 1
  const delayMs = callbackBackoffMs * 2 ** (attempt - 1)
  const retryAt = attempt < callbackAttempts ? new Date(Date.now() + delayMs) : undefined
  const startedAt = new Date().toISOString()
  let outcome: AttemptOutcome
  if (!job?.result || !apiKey) {
    outcome = {
      statusCode: null,
      durationMs: 0,
      error: !job?.result ? 'job has no result' : 'partner has no active API key to sign with',
    }
  } else {
    const headers = {
      ...signatureHeaders(apiKey, job.partnerId),
      'SmileID-Job-ID': job.id,
      'User-Agent': 'routeless-verification-callbacks/0.1',
    }
    outcome = await postCallback(delivery.url, JSON.stringify(job.result), headers, callbackTimeoutMs)
  }
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300
  const record = (trx: any) =>
    new DeliveryStore(trx).recordAttempt(
      delivery,
      { started_at: startedAt, duration_ms: outcome.durationMs, status_code: outcome.statusCode, error: outcome.error },
      retryAt,
    )
  if (ok || !retryAt) await queued.complete(record)
  else
    await queued.retry(new Error(outcome.error ?? `callback answered ${outcome.statusCode}`), {
      delayMs,
      effects: record,
    })
}
