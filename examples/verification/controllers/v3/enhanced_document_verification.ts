import { params } from 'routeless'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController, productAuth } from '../../src/http/api-controller.ts'
import {
  readDocumentVerification,
  type EnhancedDocumentVerificationForm,
} from '../../src/products/document-verification.ts'

/** POST /v3/enhanced_document_verification */
export class Default extends ApiController {
  static params = {
    POST: params({
      summary: 'Submit an Enhanced Document Verification job (the document, checked against the ID authority)',
      tags: ['products'],
    }),
  }
  static auth = productAuth('enhanced_document_verification')

  /** Document verification plus a check of the document's number with its issuer (async: 202). */
  async POST(form: EnhancedDocumentVerificationForm) {
    return acceptJob(this, await readDocumentVerification(this, form, 'enhanced_document_verification'))
  }
}
