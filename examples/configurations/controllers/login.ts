// POST /login → login.ts Default.POST()
import { clientAddress, params, type Unauthorized, unauthorized } from 'routeless'
import { ApiController } from '../src/api-controller.ts'
import type { Credentials } from '../src/inputs.ts'
import { tooManyAttempts } from '../src/login-throttle.ts'
import { loginName } from '../src/record-rules.ts'
import { sessionCookie, TOKEN_HEADER } from '../src/session-token.ts'

export class Default extends ApiController {
  static params = {
    POST: params({
      summary: 'Log in: a session cookie and an X-Session-Token header',
      tags: ['sessions'],
      responses: {
        200: '"Authorized"; Set-Cookie: session=…; X-Session-Token: …',
        401: '"Unauthorized"',
        429: 'Too many failed logins for this username or from this client; Retry-After gives the seconds to wait',
      },
    }),
  }

  /**
   * `{"username": …, "password": …}` (or `name` for `username`) → "Authorized" and a new session; 429 with
   * `Retry-After` while the username or this client is backing off after failed logins (src/login-throttle.ts).
   */
  async POST(credentials: Credentials): Promise<'Authorized' | Unauthorized<'Unauthorized'>> {
    const username = loginName(credentials)
    const { users, sessions, secureCookies, loginThrottle } = this.context
    const client = clientAddress(this)
    const attempt = await loginThrottle.attempt(username, client) // counted as a failure until it succeeds
    if (attempt.waitMs > 0) throw tooManyAttempts(attempt.waitMs)
    const userId = await users.authenticate(username, credentials.password)
    if (userId === undefined) return unauthorized('Unauthorized' as const)
    await attempt.succeeded()
    const { token } = await sessions.open(userId)
    this.response.headers.set('Set-Cookie', sessionCookie(token, Math.floor(sessions.ttl / 1000), secureCookies))
    this.response.headers.set(TOKEN_HEADER, token)
    this.response.headers.set('Cache-Control', 'no-store')
    return 'Authorized'
  }
}
