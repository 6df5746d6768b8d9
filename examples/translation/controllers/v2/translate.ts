import { ApiController } from '../../src/http/api-controller.ts'
import { reportingTag } from '../../src/translate/reporting-tag.ts'
import { readTranslateParams } from '../../src/translate/translate-params.ts'

/** POST /v2/translate */
export class Default extends ApiController {
  static bodyLimit = 128 * 1024

  async POST() {
    const params = readTranslateParams(this.kwargs)
    const translations = await this.context.translation.translate(params, this.key, reportingTag(this.request))
    return { translations }
  }
}
