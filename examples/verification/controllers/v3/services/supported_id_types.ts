import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedIdTypes } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/supported_id_types (no token) */
export class Default extends CatalogueController {
  GET({ country }: { country?: unknown }) {
    return supportedIdTypes(country)
  }
}
