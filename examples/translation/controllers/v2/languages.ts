import { params, type KwargsOf } from 'routeless'
import { z } from 'zod'
import { ApiController } from '../../src/http/api-controller.ts'
import { choice } from '../../src/http/schemas.ts'
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from '../../src/languages/catalogue.ts'

const TYPE_INVALID = "Parameter 'type' is invalid. 'source' and 'target' are valid values."
const languagesParams = params({
  summary: 'Source or target languages',
  kwargs: z.object({ type: choice('type', ['source', 'target'], TYPE_INVALID) }),
})

/** GET|POST /v2/languages?type=source|target; a GET may carry `type` in a form or JSON body (routeless reads it). */
export class Default extends ApiController {
  static params = { GET: languagesParams, POST: languagesParams }

  GET({ type }: KwargsOf<typeof languagesParams>) {
    return languages(type)
  }

  POST({ type }: KwargsOf<typeof languagesParams>) {
    return languages(type)
  }
}

function languages(type: string | undefined) {
  return type === 'target' ? TARGET_LANGUAGES : SOURCE_LANGUAGES
}
