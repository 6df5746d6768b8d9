import { ApiController } from '../../src/http/api-controller.ts'
import { jobStatus } from '../../src/jobs/job-status.ts'
import { jobStatusParams } from '../../src/http/params.ts'

/** GET /v3/status/{jobId} */
export class Default extends ApiController {
  static params = { GET: jobStatusParams }

  GET(jobId: string) {
    return jobStatus(this, jobId)
  }
}
