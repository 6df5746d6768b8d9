// GET /openapi.json → openapi.json.ts Default.GET()
import { ApiController } from '../src/api-controller.ts'

/** This API's OpenAPI 3.1 document; no session needed. */
export class Default extends ApiController {
  /** This API's OpenAPI 3.1 document. */
  GET() {
    return this.context.openapi()
  }
}
