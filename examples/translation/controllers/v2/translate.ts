import { ApiController } from '../../src/http/api-controller.ts'
import { reportingTag } from '../../src/translate/reporting-tag.ts'
import { translateParams } from '../../src/translate/translate-params.ts'
import type { TranslateRequest } from '../../src/translate/translate-request.ts'

/** POST /v2/translate */
export class Default extends ApiController {
  static bodyLimit = 128 * 1024

  /** Translates `text` into `target_lang`; the parameters are DeepL's (src/translate/translate-request.ts). */
  async POST(request: TranslateRequest) {
    const translations = await this.context.translation.translate(
      translateParams(request),
      this.key,
      reportingTag(this.headers),
    )
    return { translations }
  }
}
