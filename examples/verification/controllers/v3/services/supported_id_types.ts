import type { KwargsOf } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { supportedIdTypes } from '../../../src/reference/catalogue.ts'
import { supportedIdTypesParams } from '../../../src/http/params.ts'

/** GET /v3/services/supported_id_types (no token) */
export class Default extends CatalogueController {
  static params = { GET: supportedIdTypesParams }

  GET({ country }: KwargsOf<typeof supportedIdTypesParams>) {
    return supportedIdTypes(country)
  }
}
