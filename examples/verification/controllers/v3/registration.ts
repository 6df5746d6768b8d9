import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readRegistration, type RegistrationForm } from '../../src/products/smart-selfie.ts'

/** POST /v3/registration */
export class Default extends ApiController {
  static params = {
    POST: params({ summary: 'Submit a SmartSelfie registration (enrolls the user on clear)', tags: ['products'] }),
  }
  static auth = productAuth('smart_selfie_registration')

  /** Registers (enrolls) a user with a selfie and liveness images (async: 202). */
  async POST(form: RegistrationForm) {
    return acceptJob(this, await readRegistration(this, form))
  }
}
