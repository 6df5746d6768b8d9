import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readAddress } from '../../src/products/address.ts'
import { addressParams } from '../../src/http/params.ts'

/** POST /v3/address */
export class Default extends ApiController {
  static params = { POST: addressParams }

  async POST() {
    return acceptJob(this, await readAddress(this, multipartForm(this)), 'short')
  }
}
