import { params } from 'routeless'
import { acceptJob } from '../../../src/http/accept-job.ts'
import { answerAmlSync } from '../../../src/http/aml-sync.ts'
import { ApiController, productAuth } from '../../../src/http/api-controller.ts'
import { readAml, type AmlForm } from '../../../src/products/aml.ts'

/** POST /v3/aml */
export class Default extends ApiController {
  static params = { POST: params({ summary: 'Submit a one-time AML screening (202)', tags: ['products'] }) }
  static auth = productAuth('one_time_aml')

  /** Screens a person against sanctions, PEP and adverse media lists (async: 202). */
  async POST(form: AmlForm) {
    return acceptJob(this, await readAml(this, form, 'one_time'), 'short')
  }
}

/** POST /v3/aml/sync */
export class Sync extends ApiController {
  static params = {
    POST: params({
      summary:
        'One-time AML screening, answered inline (SmileID-Idempotency-Key makes a repeat return the first result)',
      tags: ['products'],
    }),
  }
  static auth = productAuth('one_time_aml')

  /** The same screening, answered at once with the result (200). */
  async POST(form: AmlForm) {
    return answerAmlSync(this, await readAml(this, form, 'sync'))
  }
}
