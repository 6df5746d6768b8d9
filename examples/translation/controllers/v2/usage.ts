import { ApiController } from '../../src/http/api-controller.ts'
import { usageFor } from '../../src/usage/usage-report.ts'

/** GET|POST /v2/usage */
export class Default extends ApiController {
  GET() {
    return usageFor(this.key, this.context.meter, this.context.now())
  }

  POST() {
    return this.GET()
  }
}
