import { Controller } from 'routeless'
import { BODY_LIMIT } from '../src/config.ts'
import { renderPageError } from '../src/links/page-error.ts'
import { type PageForm, showForm, showResult, submitForm } from '../src/links/page-flow.ts'
import type { Services } from '../src/services.ts'

/**
 * The hosted verification page of a link: HTML for the end user, no token. Its errors are pages too (text/html).
 */
export class Default extends Controller<Services> {
  static bodyLimit = BODY_LIMIT
  static renderError = renderPageError
  static consumes = ['multipart'] as const

  /**
   * The link's form (GET /links/{partnerId}/{refId}), or a job's result page (…/{jobId}), which refreshes until the
   * job is decided; 404 for no such link or job, 410 for a link disabled, expired or used up.
   */
  GET(partnerId: string, refId: string, jobId = '') {
    return jobId ? showResult(this, partnerId, refId, jobId) : showForm(this, partnerId, refId)
  }

  /** The form sent (multipart, with the two photos): 303 to the job's result page, or the form again with what to fix. */
  POST(partnerId: string, refId: string, form: PageForm) {
    return submitForm(this, partnerId, refId, form)
  }
}
