import { params } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { bankCodes, type CountryQuery } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/bank_codes (no token) */
export class Default extends CatalogueController {
  static params = { GET: params({ summary: 'Bank codes, optionally of one country (no token)', tags: ['catalogue'] }) }

  /** Bank codes, optionally of one country (no token). */
  GET({ country }: CountryQuery) {
    return bankCodes(country)
  }
}
