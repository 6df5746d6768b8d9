// POST /logout → logout.ts Default.POST()
import { SignedInController } from '../src/api-controller.ts'
import { sessionCookie } from '../src/session-token.ts'
import { requireNoInput } from '../src/validation.ts'

export class Default extends SignedInController {
  /** Ends this request's session (only this one) and clears the cookie → "Success". */
  async POST() {
    requireNoInput(this.kwargs, this.jsonBody())
    await this.context.sessions.close(this.sessionToken)
    this.response.headers.set('Set-Cookie', sessionCookie('', 0, this.context.secureCookies))
    return 'Success'
  }
}
