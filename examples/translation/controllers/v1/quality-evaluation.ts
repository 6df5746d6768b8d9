import { type Accepted, accepted } from 'routeless'
import { ApiController } from '../../src/http/api-controller.ts'
import type { Missing, Refused } from '../../src/http/deepl-error.ts'
import type { QualityEvaluationRequest, QualityJob } from '../../src/quality/quality-jobs.ts'

/** Where the job is, once submitted. */
interface QualitySubmitted {
  job_id: string
  poll_url: string
}

/** When to ask again, in seconds. */
type RetryAfter = { 'retry-after': string }

/** POST /v1/quality-evaluation (submit → 202), GET /v1/quality-evaluation/{job_id} (poll). */
export class Default extends ApiController {
  /** Evaluates the segments (src/quality/evaluator.ts); the job is done when this answers. */
  async POST(kwargs: QualityEvaluationRequest): Promise<Accepted<QualitySubmitted, RetryAfter> | Refused | Missing> {
    return accepted(await this.context.quality.submit(this.key.keyId, kwargs), { 'retry-after': '0' })
  }

  /** The job's report (`done`), or its state. */
  async GET(jobId: string): Promise<QualityJob | Accepted<QualityJob, RetryAfter> | Refused | Missing> {
    const job = await this.context.quality.poll(this.key.keyId, jobId)
    return job.status === 'processing' ? accepted(job, { 'retry-after': '1' }) : job
  }
}
