import { HttpError } from 'routeless'
import { contentTypeOf } from '../../src/documents/content-types.ts'
import { ApiController } from '../../src/http/api-controller.ts'

/**
 * POST /v2/document (multipart upload → document_id, document_key), POST /v2/document/{id} (status),
 * POST /v2/document/{id}/result (the translated file, once).
 */
export class Default extends ApiController {
  static bodyLimit = 11 * 1024 * 1024

  async POST(id = '', part = '') {
    const documents = this.context.documents
    if (!id) return documents.upload(this.key, this.kwargs)
    if (!part) return documents.status(id, this.kwargs)
    if (part !== 'result') throw new HttpError(404, 'Not found')
    const { bytes, fileName, format } = await documents.download(id, this.kwargs)
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'Content-Type': contentTypeOf(format), 'Content-Disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"` },
    })
  }
}
