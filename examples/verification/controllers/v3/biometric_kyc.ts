import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readBiometricKyc, type BiometricKycForm } from '../../src/products/biometric-kyc.ts'

/** POST /v3/biometric_kyc */
export class Default extends ApiController {
  static params = {
    POST: params({
      summary: 'Submit a Biometric KYC job: an ID number and a selfie with liveness frames',
      tags: ['products'],
    }),
  }
  static auth = productAuth('biometric_kyc')

  /** Biometric KYC: an ID number checked with its issuer and matched to a selfie (async: 202). */
  async POST(form: BiometricKycForm) {
    return acceptJob(this, await readBiometricKyc(this, form))
  }
}
