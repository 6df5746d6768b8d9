import { params } from 'routeless'
import { amlNews, type NewsQuery } from '../../../src/aml/news.ts'
import { acceptJob } from '../../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../../src/http/api-controller.ts'
import { smileIdToken } from '../../../src/http/authenticate.ts'
import { readAml, type AmlMonitoringForm } from '../../../src/products/aml.ts'

/** POST /v3/aml/monitoring and GET /v3/aml/monitoring/{job_id}/news/{reference} */
export class Default extends ApiController {
  static params = {
    GET_$_news: params({ summary: 'News articles about one person an AML job matched', tags: ['products'] }),
    POST: params({ summary: 'Submit an AML screening with monitoring', tags: ['products'] }),
  }
  static auth = { GET: smileIdToken('Invalid authentication credentials.'), POST: productAuth('aml') }

  /** Starts monitoring a person on the screening lists (async: 202). */
  async POST(form: AmlMonitoringForm) {
    return acceptJob(this, await readAml(this, form, 'monitoring'))
  }

  /** `reference` is the person's ref in the job's people[]. */
  GET_$_news(jobId: string, reference: string, query: NewsQuery) {
    return amlNews(this, jobId, reference, query)
  }
}
