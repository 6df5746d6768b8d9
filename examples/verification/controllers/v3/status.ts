import { params } from 'routeless'
import { ApiController } from '../../src/http/api-controller.ts'
import { jobStatus, type JobId } from '../../src/jobs/job-status.ts'

/** GET /v3/status/{jobId} */
export class Default extends ApiController {
  static params = {
    GET: params({
      summary: 'The status of a job: 202 while processing, 200 once decided, 404 (as data) when unknown',
      tags: ['jobs'],
    }),
  }

  GET(jobId: JobId) {
    return jobStatus(this, jobId)
  }
}
