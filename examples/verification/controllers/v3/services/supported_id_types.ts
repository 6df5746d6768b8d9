import { params } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedIdTypes, type CountryQuery } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/supported_id_types (no token) */
export class Default extends CatalogueController {
  static params = {
    GET: params({ summary: 'Supported ID types, optionally of one country (no token)', tags: ['catalogue'] }),
  }

  /** Supported ID types with their number patterns, optionally of one country (no token). */
  GET({ country }: CountryQuery) {
    return supportedIdTypes(country)
  }
}
