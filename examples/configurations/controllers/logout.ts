// POST /logout → logout.ts Default.POST()
import { SignedInController } from '../src/api-controller.ts'
import { sessionCookie } from '../src/session-token.ts'
import { logout } from '../src/schemas.ts'
import { requireNoInput } from '../src/validation.ts'

export class Default extends SignedInController {
  static params = { POST: logout }

  /** Ends this request's session (only this one) and clears the cookie → "Success". */
  async POST() {
    requireNoInput(this.kwargs, this.jsonBody())
    await this.context.sessions.close(this.principal.token)
    this.response.headers.set('Set-Cookie', sessionCookie('', 0, this.context.secureCookies))
    return 'Success'
  }
}
