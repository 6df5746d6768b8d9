import { params } from 'routeless'
import { ApiController } from '../../../src/http/api-controller.ts'
import { smileIdToken } from '../../../src/http/authenticate.ts'
import { apiErrorRenderer, QUERY_FIELDS } from '../../../src/http/errors.ts'
import { idStatus, type IdStatusQuery } from '../../../src/reference/id-status.ts'

/** GET /v3/services/id_status (token required) */
export class Default extends ApiController {
  static params = { GET: params({ summary: 'Availability of an ID authority (token required)', tags: ['catalogue'] }) }
  static auth = smileIdToken('Invalid token')
  static renderError = apiErrorRenderer(QUERY_FIELDS)

  /** Whether an ID type's issuer is answering now, with its recent success rates. */
  GET(query: IdStatusQuery) {
    return idStatus(query)
  }
}
