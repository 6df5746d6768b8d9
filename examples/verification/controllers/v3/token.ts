import { issueToken } from '../../src/auth/issue-token.ts'
import { OpenController } from '../../src/http/open-controller.ts'
import { tokenParams } from '../../src/http/params.ts'

/** POST /v3/token */
export class Default extends OpenController {
  static params = { POST: tokenParams }

  POST() {
    return issueToken(this)
  }
}
