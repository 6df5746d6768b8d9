import { HttpError, params, type KwargsOf } from 'routeless'
import { z } from 'zod'
import { ApiController } from '../../src/http/api-controller.ts'
import { getBodyFields } from '../../src/http/get-body.ts'
import { choice } from '../../src/http/schemas.ts'
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from '../../src/languages/catalogue.ts'

const TYPE_INVALID = "Parameter 'type' is invalid. 'source' and 'target' are valid values."
const languagesParams = params({
  summary: 'Source or target languages',
  kwargs: z.object({ type: choice('type', ['source', 'target'], TYPE_INVALID) }),
})

/** GET|POST /v2/languages?type=source|target; a GET may carry `type` in a form or JSON body (src/http/get-body.ts). */
export class Default extends ApiController {
  static params = { GET: languagesParams, POST: languagesParams }

  async GET({ type }: KwargsOf<typeof languagesParams>) {
    const chosen = type || (await getBodyFields(this.env, 4096)).type || undefined
    if (chosen !== undefined && chosen !== 'source' && chosen !== 'target') throw new HttpError(400, TYPE_INVALID)
    return languages(chosen)
  }

  POST({ type }: KwargsOf<typeof languagesParams>) {
    return languages(type)
  }
}

function languages(type: string | undefined) {
  return type === 'target' ? TARGET_LANGUAGES : SOURCE_LANGUAGES
}
