import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readCompare, type CompareForm } from '../../src/products/smart-selfie.ts'

/** POST /v3/compare */
export class Default extends ApiController {
  static params = {
    POST: params({ summary: 'Submit a SmartSelfie comparison of a selfie with another image', tags: ['products'] }),
  }
  static auth = productAuth('smart_selfie_compare')

  /** Compares a selfie with a second image, or with the user's enrolled image (async: 202). */
  async POST(form: CompareForm) {
    return acceptJob(this, await readCompare(this, form))
  }
}
