import { contentTypeOf } from '../../src/documents/content-types.ts'
import { ApiController } from '../../src/http/api-controller.ts'

/**
 * POST /v2/document (multipart upload → document_id, document_key), POST /v2/document/{id} (status),
 * POST /v2/document/{id}/result (the translated file, once).
 */
export class Default extends ApiController {
  static bodyLimit = 11 * 1024 * 1024

  /** POST /v2/document uploads; POST /v2/document/{id} answers the status. */
  async POST(id = '') {
    const documents = this.context.documents
    return id ? documents.status(id, this.kwargs) : documents.upload(this.key, this.kwargs)
  }

  /** POST /v2/document/{id}/result: the translated file, once. */
  async POST_$_result(id: string) {
    const { bytes, fileName, format } = await this.context.documents.download(id, this.kwargs)
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'Content-Type': contentTypeOf(format), 'Content-Disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"` },
    })
  }
}
