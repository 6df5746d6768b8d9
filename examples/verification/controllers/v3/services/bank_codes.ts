import type { KwargsOf } from 'routeless'
import { CatalogueController } from '../../../src/http/open-controller.ts'
import { bankCodes } from '../../../src/reference/catalogue.ts'
import { bankCodesParams } from '../../../src/http/params.ts'

/** GET /v3/services/bank_codes (no token) */
export class Default extends CatalogueController {
  static params = { GET: bankCodesParams }

  GET({ country }: KwargsOf<typeof bankCodesParams>) {
    return bankCodes(country)
  }
}
