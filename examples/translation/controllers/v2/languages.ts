import { ApiController } from '../../src/http/api-controller.ts'
import { getBodyFields } from '../../src/http/get-body.ts'
import { type LanguageListQuery, languageList, TYPE_INVALID } from '../../src/languages/language-list.ts'
import { HttpError } from 'routeless'

/** GET|POST /v2/languages?type=source|target; a GET may carry `type` in a form or JSON body (src/http/get-body.ts). */
export class Default extends ApiController {
  async GET({ type }: LanguageListQuery = {}) {
    const chosen = type || (await getBodyFields(this.env, 4096)).type || undefined
    if (chosen !== undefined && chosen !== 'source' && chosen !== 'target') throw new HttpError(400, TYPE_INVALID)
    return languageList(chosen)
  }

  POST({ type }: LanguageListQuery = {}) {
    return languageList(type || undefined)
  }
}
