/**
 * How a session travels. Browsers: the `session` cookie set at login (HttpOnly, SameSite=Strict, Path=/, Max-Age of
 * the session, Secure when configured). Other clients: the `X-Session-Token` header of the login response, sent back
 * as `Authorization: Bearer <token>`. A request carrying an Authorization header is judged by it alone.
 */
export const SESSION_COOKIE = 'session'
export const TOKEN_HEADER = 'X-Session-Token'

/** The session token a request carries, or undefined. */
export function sessionTokenOf(request: Request): string | undefined {
  const authorization = request.headers.get('authorization')
  if (authorization !== null) return /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? ''
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.split('=', 2)
    if (name?.trim() === SESSION_COOKIE && value !== undefined) return value.trim()
  }
  return undefined
}

/** `Set-Cookie` for a new session; an empty token with a max age of 0 clears it. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}
