import { ApiController } from '../../src/http/api-controller.ts'
import { languageResources, languagesOf, type Resource } from '../../src/languages/v3-languages.ts'

/** GET /v3/languages?resource=…[&include=beta&include=external] */
export class Default extends ApiController {
  /** The languages of one resource (`translate_text` when none is named) and the features each supports there. */
  GET({ resource = 'translate_text' }: { resource?: Resource; include?: Array<'beta' | 'external'> }) {
    return languagesOf(resource)
  }
}

/** GET /v3/languages/resources */
export class Resources extends ApiController {
  /** Every resource and, per feature, whether the source, the target or both languages must support it. */
  GET() {
    return languageResources()
  }
}
