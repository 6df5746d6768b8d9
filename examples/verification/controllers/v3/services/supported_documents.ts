import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedDocumentList } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/supported_documents (no token) */
export class Default extends CatalogueController {
  GET(kwargs: Record<string, unknown>) {
    return supportedDocumentList(kwargs)
  }
}
