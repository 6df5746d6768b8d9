import { params } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedDocumentList, type SupportedDocumentsQuery } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/supported_documents (no token) */
export class Default extends CatalogueController {
  static params = {
    GET: params({ summary: 'Documents accepted for document verification (no token)', tags: ['catalogue'] }),
  }

  /** The documents accepted per country, optionally of one continent or country (no token). */
  GET(query: SupportedDocumentsQuery) {
    return supportedDocumentList(query)
  }
}
