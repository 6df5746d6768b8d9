import { glossaryLanguagePairs } from '../../src/glossaries/glossary-api.ts'
import { ApiController } from '../../src/http/api-controller.ts'

/** GET /v2/glossary-language-pairs */
export class Default extends ApiController {
  /** The language pairs a glossary can have. */
  GET() {
    return glossaryLanguagePairs()
  }
}
