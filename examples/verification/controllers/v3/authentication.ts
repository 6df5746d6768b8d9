import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readAuthentication } from '../../src/products/smart-selfie.ts'
import { authenticationParams } from '../../src/http/params.ts'

/** POST /v3/authentication */
export class Default extends ApiController {
  static params = { POST: authenticationParams }

  async POST() {
    return acceptJob(this, await readAuthentication(this, multipartForm(this)))
  }
}
