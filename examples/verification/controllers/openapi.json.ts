import { Controller } from 'routeless'
import type { Services } from '../src/services.ts'

/** GET /openapi.json: this API's OpenAPI 3.1 document (no token). */
export class Default extends Controller<Services> {
  GET() {
    return this.context.openapi()
  }
}
