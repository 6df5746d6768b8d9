import { multipartForm } from '../../src/forms/multipart.ts'
import { acceptJob } from '../../src/http/accept-job.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { readDocumentVerification } from '../../src/products/document-verification.ts'
import { documentVerificationParams } from '../../src/http/params.ts'

/** POST /v3/document_verification */
export class Default extends ApiController {
  static params = { POST: documentVerificationParams }

  async POST() {
    return acceptJob(this, await readDocumentVerification(this, multipartForm(this), 'document_verification'))
  }
}
