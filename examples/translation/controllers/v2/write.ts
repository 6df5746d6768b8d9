import { ApiController } from '../../src/http/api-controller.ts'
import { readWriteParams } from '../../src/write/write-params.ts'
import { improve } from '../../src/write/write-service.ts'

/** POST /v2/write/rephrase (writing_style or tone) */
export class Rephrase extends ApiController {
  static bodyLimit = 128 * 1024

  POST() {
    return improve(readWriteParams(this.kwargs, true), 'rephrase', this.context.translation, this.key)
  }
}

/** POST /v2/write/correct (minimal changes) */
export class Correct extends ApiController {
  static bodyLimit = 128 * 1024

  POST() {
    return improve(readWriteParams(this.kwargs, false), 'correct', this.context.translation, this.key)
  }
}
