import { multipartForm } from '../../../src/forms/multipart.ts'
import { acceptJob } from '../../../src/http/accept-job.ts'
import { ApiController } from '../../../src/http/api-controller.ts'
import { answerAmlSync } from '../../../src/http/aml-sync.ts'
import { readAml } from '../../../src/products/aml.ts'
import { amlParams, amlSyncParams } from '../../../src/http/params.ts'

/** POST /v3/aml */
export class Default extends ApiController {
  static params = { POST: amlParams }

  async POST() {
    return acceptJob(this, await readAml(this, multipartForm(this), 'one_time'), 'short')
  }
}

/** POST /v3/aml/sync */
export class Sync extends ApiController {
  static params = { POST: amlSyncParams }

  async POST() {
    return answerAmlSync(this, await readAml(this, multipartForm(this), 'sync'))
  }
}
