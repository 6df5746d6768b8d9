import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readAddress, type AddressForm } from '../../src/products/address.ts'

/** POST /v3/address */
export class Default extends ApiController {
  static params = {
    POST: params({
      summary: 'Submit an address verification job (ZA: id_number; NG: utility account)',
      tags: ['products'],
    }),
  }
  static auth = productAuth('address_verification')

  /** Verifies an address against the records of its country (async: 202, result by callback). */
  async POST(form: AddressForm) {
    return acceptJob(this, await readAddress(this, form), 'short')
  }
}
