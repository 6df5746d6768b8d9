import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { answerEnhancedKycSync } from '../../src/http/enhanced-kyc-sync.ts'
import { readEnhancedKyc, type EnhancedKycForm } from '../../src/products/enhanced-kyc.ts'

/** POST /v3/enhanced_kyc */
export class Default extends ApiController {
  static params = {
    POST: params({ summary: 'Submit an Enhanced KYC job (202; the result goes to callback_url)', tags: ['products'] }),
  }
  static auth = productAuth('enhanced_kyc')

  /** Enhanced KYC: an ID number looked up with its issuer (async: 202, result by callback). */
  async POST(form: EnhancedKycForm) {
    return acceptJob(this, await readEnhancedKyc(this, form, { sync: false }))
  }
}

/** POST /v3/enhanced_kyc/sync */
export class Sync extends ApiController {
  static params = {
    POST: params({ summary: 'Enhanced KYC, answered inline (signed like a callback)', tags: ['products'] }),
  }
  static auth = productAuth('enhanced_kyc')

  /** Enhanced KYC, answered at once with the result (200). */
  async POST(form: EnhancedKycForm) {
    return answerEnhancedKycSync(this, await readEnhancedKyc(this, form, { sync: true }))
  }
}
