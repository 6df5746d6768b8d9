import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readDocumentVerification } from '../../src/products/document-verification.ts'
import { enhancedDocumentVerificationParams } from '../../src/http/params.ts'

/** POST /v3/enhanced_document_verification */
export class Default extends ApiController {
  static params = { POST: enhancedDocumentVerificationParams }

  async POST() {
    return acceptJob(this, await readDocumentVerification(this, multipartForm(this), 'enhanced_document_verification'))
  }
}
