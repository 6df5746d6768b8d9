import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { answerEnhancedKycSync } from '../../src/http/enhanced-kyc-sync.ts'
import { readEnhancedKyc } from '../../src/products/enhanced-kyc.ts'
import { enhancedKycParams, enhancedKycSyncParams } from '../../src/http/params.ts'

/** POST /v3/enhanced_kyc */
export class Default extends ApiController {
  static params = { POST: enhancedKycParams }

  async POST() {
    return acceptJob(this, await readEnhancedKyc(this, multipartForm(this), { sync: false }))
  }
}

/** POST /v3/enhanced_kyc/sync */
export class Sync extends ApiController {
  static params = { POST: enhancedKycSyncParams }

  async POST() {
    return answerEnhancedKycSync(this, await readEnhancedKyc(this, multipartForm(this), { sync: true }))
  }
}
