import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readBiometricKyc } from '../../src/products/biometric-kyc.ts'

/** POST /v3/biometric_kyc */
export class Default extends ApiController {
  async POST() {
    return acceptJob(this, await readBiometricKyc(this, multipartForm(this)))
  }
}
