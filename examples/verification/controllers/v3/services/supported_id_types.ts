import { params } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedIdTypes, type CountryQuery } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/supported_id_types (no token) */
export class Default extends CatalogueController {
  static params = {
    GET: params({ summary: 'Supported ID types, optionally of one country (no token)', tags: ['catalogue'] }),
  }

  GET({ country }: CountryQuery) {
    return supportedIdTypes(country)
  }
}
