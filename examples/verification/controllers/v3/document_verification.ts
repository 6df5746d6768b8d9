import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import { readDocumentVerification, type DocumentVerificationForm } from '../../src/products/document-verification.ts'

/** POST /v3/document_verification */
export class Default extends ApiController {
  static params = { POST: params({ summary: 'Submit a Document Verification job', tags: ['products'] }) }
  static auth = productAuth('document_verification')

  /** Verifies an identity document's photo against a selfie (async: 202). */
  async POST(form: DocumentVerificationForm) {
    return acceptJob(this, await readDocumentVerification(this, form, 'document_verification'))
  }
}
