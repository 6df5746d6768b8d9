import type { KwargsOf } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedDocumentList } from '../../../src/reference/catalogue.ts'
import { supportedDocumentsParams } from '../../../src/http/params.ts'

/** GET /v3/services/supported_documents (no token) */
export class Default extends CatalogueController {
  static params = { GET: supportedDocumentsParams }

  GET(kwargs: KwargsOf<typeof supportedDocumentsParams>) {
    return supportedDocumentList(kwargs)
  }
}
