import { Controller } from 'routeless'
import type { Services } from '../src/services.ts'

/** GET /openapi.json: this API's OpenAPI 3.1 document (no token). */
export class Default extends Controller<Services> {
  /** This API's OpenAPI 3.1 document (no token needed). */
  GET() {
    return this.context.openapi()
  }
}
