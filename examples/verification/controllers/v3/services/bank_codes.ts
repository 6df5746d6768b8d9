import { CatalogueController } from '../../../src/http/open-controller.ts'
import { bankCodes } from '../../../src/reference/catalogue.ts'

/** GET /v3/services/bank_codes (no token) */
export class Default extends CatalogueController {
  GET({ country }: { country?: unknown }) {
    return bankCodes(country)
  }
}
