import { issueToken } from '../../src/auth/issue-token.ts'
import { OpenController } from '../../src/http/open-controller.ts'

/** POST /v3/token */
export class Default extends OpenController {
  POST() {
    return issueToken(this)
  }
}
