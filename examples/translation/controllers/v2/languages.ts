import { HttpError } from 'routeless'
import { ApiController } from '../../src/http/api-controller.ts'
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from '../../src/languages/catalogue.ts'

/** GET|POST /v2/languages?type=source|target */
export class Default extends ApiController {
  GET({ type }: { type?: unknown }) {
    if (type === undefined || type === '' || type === 'source') return SOURCE_LANGUAGES
    if (type === 'target') return TARGET_LANGUAGES
    throw new HttpError(400, "Parameter 'type' is invalid. 'source' and 'target' are valid values.")
  }

  POST(kwargs: { type?: unknown }) {
    return this.GET(kwargs)
  }
}
