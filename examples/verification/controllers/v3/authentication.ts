import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readAuthentication, type AuthenticationForm } from '../../src/products/smart-selfie.ts'

/** POST /v3/authentication */
export class Default extends ApiController {
  static params = {
    POST: params({ summary: 'Submit a SmartSelfie authentication of an enrolled user', tags: ['products'] }),
  }
  static auth = productAuth('smart_selfie_authentication')

  /** Authenticates an enrolled user by a new selfie (async: 202). */
  async POST(form: AuthenticationForm) {
    return acceptJob(this, await readAuthentication(this, form))
  }
}
