import { params } from 'routeless'
import { issueToken, type TokenForm } from '../../src/auth/issue-token.ts'
import { OpenController } from '../../src/http/open-controller.ts'

/** POST /v3/token */
export class Default extends OpenController {
  static params = {
    POST: params({
      summary: 'Issue a SmileID-Token for the smileid-partner-id and smileid-api-key headers',
      tags: ['auth'],
    }),
  }

  /** A token for the other calls, for the partner id and API key in the headers. */
  POST(form: TokenForm) {
    return issueToken(this, form)
  }
}
