import { ApiController } from '../../src/http/api-controller.ts'
import { type CorrectRequest, type RephraseRequest, writeParams } from '../../src/write/write-params.ts'
import { improve } from '../../src/write/write-service.ts'

/** POST /v2/write/rephrase (writing_style or tone) */
export class Rephrase extends ApiController {
  static bodyLimit = 128 * 1024

  /** Rephrases texts, optionally in a writing style or tone. */
  POST(request: RephraseRequest) {
    return improve(writeParams(request, true), 'rephrase', this.context.translation, this.key)
  }
}

/** POST /v2/write/correct (minimal changes) */
export class Correct extends ApiController {
  static bodyLimit = 128 * 1024

  /** Corrects spelling and grammar of texts. */
  POST(request: CorrectRequest) {
    return improve(writeParams(request, false), 'correct', this.context.translation, this.key)
  }
}
