import { params } from 'routeless'
import { amlNews, type NewsQuery } from '../../../src/aml/news.ts'
import { multipartForm } from '../../../src/forms/multipart.ts'
import { acceptJob } from '../../../src/http/accept-job.ts'
import { ApiController } from '../../../src/http/api-controller.ts'
import { readAml } from '../../../src/products/aml.ts'
import { amlMonitoringParams } from '../../../src/http/params.ts'

/** POST /v3/aml/monitoring and GET /v3/aml/monitoring/{job_id}/news/{reference} */
export class Default extends ApiController {
  static params = {
    GET_$_news: params({ summary: 'News articles about one person an AML job matched', tags: ['products'] }),
    POST: amlMonitoringParams,
  }

  async POST() {
    return acceptJob(this, await readAml(this, multipartForm(this), 'monitoring'))
  }

  /** `reference` is the person's ref in the job's people[]. */
  GET_$_news(jobId: string, reference: string, query: NewsQuery) {
    return amlNews(this, jobId, reference, query)
  }
}
