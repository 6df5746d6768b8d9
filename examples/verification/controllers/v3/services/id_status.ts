import { ApiController } from '../../../src/http/api-controller.ts'
import { smileIdToken } from '../../../src/http/authenticate.ts'
import { idStatus } from '../../../src/reference/id-status.ts'
import { idStatusParams } from '../../../src/http/params.ts'

/** GET /v3/services/id_status (token required) */
export class Default extends ApiController {
  static params = { GET: idStatusParams }
  static auth = smileIdToken('Invalid token')

  GET({ country, id_type }: { country?: unknown; id_type?: unknown }) {
    return idStatus(country, id_type)
  }
}
