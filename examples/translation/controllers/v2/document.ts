import { contentTypeOf } from '../../src/documents/content-types.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { attachment } from '../../src/http/attachment.ts'
import type { DocumentRequest } from '../../src/translate/translate-request.ts'

/**
 * POST /v2/document (multipart upload → document_id, document_key), POST /v2/document/{id} (status),
 * POST /v2/document/{id}/result (the translated file, once).
 */
export class Default extends ApiController {
  static bodyLimit = 11 * 1024 * 1024

  /** POST /v2/document uploads; POST /v2/document/{id} answers the status. */
  async POST(id?: string, request: DocumentRequest = {}) {
    const documents = this.context.documents
    return id === undefined ? documents.upload(this.key, request) : documents.status(id, request)
  }

  /** POST /v2/document/{id}/result: the translated file, once. */
  async POST_$_result(id: string, request: DocumentRequest = {}) {
    const { bytes, fileName, format } = await this.context.documents.download(id, request)
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        'Content-Type': contentTypeOf(format),
        'Content-Disposition': attachment(fileName),
      },
    })
  }
}
