import { ApiController } from '../../src/http/api-controller.ts'
import { jobStatus } from '../../src/jobs/job-status.ts'

/** GET /v3/status/{jobId} */
export class Default extends ApiController {
  GET(jobId: string) {
    return jobStatus(this, jobId)
  }
}
