import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readRegistration } from '../../src/products/smart-selfie.ts'
import { registrationParams } from '../../src/http/params.ts'

/** POST /v3/registration */
export class Default extends ApiController {
  static params = { POST: registrationParams }

  async POST() {
    return acceptJob(this, await readRegistration(this, multipartForm(this)))
  }
}
