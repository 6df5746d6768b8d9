import { params, type KwargsOf } from 'routeless'
import { z } from 'zod'
import { ApiController } from '../../src/http/api-controller.ts'
import { choice } from '../../src/http/schemas.ts'
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from '../../src/languages/catalogue.ts'

const languagesParams = params({
  summary: 'Source or target languages',
  kwargs: z.object({ type: choice('type', ['source', 'target'], "Parameter 'type' is invalid. 'source' and 'target' are valid values.") }),
})

/** GET|POST /v2/languages?type=source|target */
export class Default extends ApiController {
  static params = { GET: languagesParams, POST: languagesParams }

  GET({ type }: KwargsOf<typeof languagesParams>) {
    return type === 'target' ? TARGET_LANGUAGES : SOURCE_LANGUAGES
  }

  POST(kwargs: KwargsOf<typeof languagesParams>) {
    return this.GET(kwargs)
  }
}
