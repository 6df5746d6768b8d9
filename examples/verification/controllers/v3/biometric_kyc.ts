import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readBiometricKyc } from '../../src/products/biometric-kyc.ts'
import { biometricKycParams } from '../../src/http/params.ts'

/** POST /v3/biometric_kyc */
export class Default extends ApiController {
  static params = { POST: biometricKycParams }

  async POST() {
    return acceptJob(this, await readBiometricKyc(this, multipartForm(this)))
  }
}
