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

  /** A job's status: 202 while it runs, 200 once decided, 404 (with a body) for no such job. */
  GET(jobId: JobId) {
    return jobStatus(this, jobId)
  }
}
