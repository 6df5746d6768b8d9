import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readRegistration } from '../../src/products/smart-selfie.ts'

/** POST /v3/registration */
export class Default extends ApiController {
  async POST() {
    return acceptJob(this, await readRegistration(this, multipartForm(this)))
  }
}
