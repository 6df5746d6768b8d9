import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { partnerHeader } from '../../src/http/authenticate.ts'
import {
  readDocumentVerification,
  type ResidencyDocumentVerificationForm,
} from '../../src/products/document-verification.ts'

/** POST /v3/residency_document_verification */
export class Default extends ApiController {
  static params = {
    POST: params({
      summary: 'Submit a Residency Document Verification job (passport and visa; SmileID-Partner-ID header required)',
      tags: ['products'],
    }),
  }
  static auth = productAuth('document_verification', partnerHeader())

  /** Verifies a residency document against a selfie (async: 202). */
  async POST(form: ResidencyDocumentVerificationForm) {
    return acceptJob(this, await readDocumentVerification(this, form, 'residency_document_verification'))
  }
}
