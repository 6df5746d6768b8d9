import { ApiController } from '../../src/http/api-controller.ts'
import type { QualityEvaluationRequest, QualityJob } from '../../src/quality/quality-jobs.ts'

/** POST /v1/quality-evaluation (submit → 202), GET /v1/quality-evaluation/{job_id} (poll). */
export class Default extends ApiController {
  /** Evaluates the segments (src/quality/evaluator.ts); the job is done when this answers. */
  async POST(kwargs: QualityEvaluationRequest): Promise<{ job_id: string; poll_url: string }> {
    const created = await this.context.quality.submit(this.key.keyId, kwargs)
    this.response.status = 202
    this.response.headers.set('Retry-After', '0')
    return created
  }

  /** The job's report (`done`), or its state. */
  async GET(jobId: string): Promise<QualityJob> {
    const job = await this.context.quality.poll(this.key.keyId, jobId)
    if (job.status === 'processing') {
      this.response.status = 202
      this.response.headers.set('Retry-After', '1')
    }
    return job
  }
}
