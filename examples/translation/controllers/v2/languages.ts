import { ApiController } from '../../src/http/api-controller.ts'
import { type LanguageListQuery, languageList } from '../../src/languages/language-list.ts'

/** GET|POST /v2/languages?type=source|target; a GET may carry `type` in a form or JSON body (routeless reads it). */
export class Default extends ApiController {
  /** The source languages, or (`type=target`) the target languages with `supports_formality`. */
  GET({ type }: LanguageListQuery = {}) {
    return languageList(type || undefined)
  }

  /** The same list as GET, with `type` in a form or JSON body. */
  POST({ type }: LanguageListQuery = {}) {
    return languageList(type || undefined)
  }
}
