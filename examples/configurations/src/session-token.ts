/**
 * How a session travels. Browsers: the `session` cookie set at login (HttpOnly, SameSite=Strict, Path=/, Max-Age of
 * the session, Secure when configured). Other clients: the `X-Session-Token` header of the login response, sent back
 * as `Authorization: Bearer <token>`. A request carrying an Authorization header is judged by it alone.
 */
import { stringifySetCookie } from 'cookie'
import type { RequestHeaders } from 'routeless'

export const SESSION_COOKIE = 'session'
export const TOKEN_HEADER = 'X-Session-Token'

/** The session token a request carries, or undefined. */
export function sessionTokenOf(headers: Pick<RequestHeaders, 'get' | 'cookie'>): string | undefined {
  const authorization = headers.get('authorization')
  if (authorization !== null) return /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? ''
  return headers.cookie(SESSION_COOKIE)
}

/** `Set-Cookie` for a new session; an empty token with a max age of 0 clears it. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    path: '/',
    maxAge: maxAgeSeconds,
    httpOnly: true,
    sameSite: 'strict',
    secure,
  })
}
