import { ApiController } from '../../src/http/api-controller.ts'
import { usageFor } from '../../src/usage/usage-report.ts'

/** GET|POST /v2/usage */
export class Default extends ApiController {
  /** The key's usage this billing period: characters (and speech) used and the limits. */
  GET() {
    return usageFor(this.key, this.context.meter, this.context.now())
  }

  /** The same report as GET. */
  POST() {
    return this.GET()
  }
}
