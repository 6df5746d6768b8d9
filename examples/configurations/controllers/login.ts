// POST /login → login.ts Default.POST()
import { clientAddress, HttpError } from 'routeless'
import { ApiController } from '../src/api-controller.ts'
import { tooManyAttempts } from '../src/login-throttle.ts'
import { sessionCookie, TOKEN_HEADER } from '../src/session-token.ts'
import { login } from '../src/schemas.ts'
import { parseLogin, requireNoInput } from '../src/validation.ts'

export class Default extends ApiController {
  static params = { POST: login }

  /**
   * `{"username": …, "password": …}` (or `name` for `username`) → "Authorized" and a new session; 429 with
   * `Retry-After` while the username or this client is backing off after failed logins (src/login-throttle.ts).
   */
  async POST() {
    requireNoInput(this.kwargs)
    const { username, password } = parseLogin(this.jsonBody())
    const { users, sessions, secureCookies, loginThrottle } = this.context
    const client = clientAddress(this)
    const wait = await loginThrottle.waitMs(username, client)
    if (wait > 0) throw tooManyAttempts(wait)
    const userId = await users.authenticate(username, password)
    if (userId === undefined) {
      await loginThrottle.failed(username, client)
      throw new HttpError(401, 'Unauthorized', { body: 'Unauthorized' })
    }
    await loginThrottle.succeeded(username)
    const { token } = await sessions.open(userId)
    this.response.headers.set('Set-Cookie', sessionCookie(token, Math.floor(sessions.ttl / 1000), secureCookies))
    this.response.headers.set(TOKEN_HEADER, token)
    this.response.headers.set('Cache-Control', 'no-store')
    return 'Authorized'
  }
}
