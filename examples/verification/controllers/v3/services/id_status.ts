import { ApiController } from '../../../src/http/api-controller.ts'
import { idStatus } from '../../../src/reference/id-status.ts'

/** GET /v3/services/id_status (token required) */
export class Default extends ApiController {
  static unauthorized = 'Invalid token'

  GET({ country, id_type }: { country?: unknown; id_type?: unknown }) {
    return idStatus(country, id_type)
  }
}
