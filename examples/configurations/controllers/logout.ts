// POST /logout → logout.ts Default.POST()
import { params } from 'routeless'
import { SignedInController } from '../src/api-controller.ts'
import type { NoInput } from '../src/inputs.ts'
import { sessionCookie } from '../src/session-token.ts'

export class Default extends SignedInController {
  static params = {
    POST: params({
      summary: 'End this session',
      tags: ['sessions'],
      responses: { 200: '"Success"; the cookie is cleared' },
    }),
  }

  /** Ends this request's session (only this one) and clears the cookie → "Success". */
  async POST({}: NoInput): Promise<'Success'> {
    await this.context.sessions.close(this.principal.token)
    this.response.headers.set('Set-Cookie', sessionCookie('', 0, this.context.secureCookies))
    return 'Success'
  }
}
