import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readCompare } from '../../src/products/smart-selfie.ts'
import { compareParams } from '../../src/http/params.ts'

/** POST /v3/compare */
export class Default extends ApiController {
  static params = { POST: compareParams }

  async POST() {
    return acceptJob(this, await readCompare(this, multipartForm(this)))
  }
}
