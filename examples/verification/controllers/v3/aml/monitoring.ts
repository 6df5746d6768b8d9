import { amlNews } from '../../../src/aml/news.ts'
import { multipartForm } from '../../../src/forms/multipart.ts'
import { acceptJob } from '../../../src/http/accept-job.ts'
import { ApiController } from '../../../src/http/api-controller.ts'
import { readAml } from '../../../src/products/aml.ts'
import { amlMonitoringParams, amlNewsParams } from '../../../src/http/params.ts'

/** POST /v3/aml/monitoring and GET /v3/aml/monitoring/{job_id}/news/{reference} */
export class Default extends ApiController {
  static params = { GET_$_news: amlNewsParams, POST: amlMonitoringParams }

  async POST() {
    return acceptJob(this, await readAml(this, multipartForm(this), 'monitoring'))
  }

  GET_$_news(jobId: string, reference: string, kwargs: Record<string, unknown>) {
    return amlNews(this, jobId, reference, kwargs)
  }
}
