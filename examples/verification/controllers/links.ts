import { Controller } from 'routeless'
import { BODY_LIMIT } from '../src/config.ts'
import { renderPageError } from '../src/links/page-error.ts'
import { showForm, showResult, submitForm } from '../src/links/page-flow.ts'
import type { Services } from '../src/services.ts'

/** The hosted verification page of a link: GET /links/{partnerId}/{refId}, POST the form, GET …/{jobId} for the outcome. */
export class Default extends Controller<Services> {
  static bodyLimit = BODY_LIMIT
  static renderError = renderPageError

  GET(partnerId: string, refId: string, jobId = '') {
    return jobId ? showResult(this, partnerId, refId, jobId) : showForm(this, partnerId, refId)
  }

  POST(partnerId: string, refId: string) {
    return submitForm(this, partnerId, refId)
  }
}
