/** Compact HS256 JSON Web Tokens on node:crypto: sign, and verify signature plus `exp`. */
import { createHmac, timingSafeEqual } from 'node:crypto'

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

export function signJwt(claims: Record<string, unknown>, key: Buffer): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`
}

export type JwtCheck =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' }

/** Checks the HS256 signature and that `exp` (seconds) is in the future. */
export function verifyJwt(token: string, key: Buffer, nowSeconds = Date.now() / 1000): JwtCheck {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return { ok: false, reason: 'malformed' }
  let header: unknown
  let claims: unknown
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'))
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  if (
    (header as { alg?: unknown })?.alg !== 'HS256' ||
    typeof claims !== 'object' ||
    claims === null ||
    Array.isArray(claims)
  ) {
    return { ok: false, reason: 'malformed' }
  }
  const expected = createHmac('sha256', key).update(`${parts[0]}.${parts[1]}`).digest()
  const actual = Buffer.from(parts[2]!, 'base64url')
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return { ok: false, reason: 'signature' }
  const exp = (claims as { exp?: unknown }).exp
  if (typeof exp !== 'number' || exp <= nowSeconds) return { ok: false, reason: 'expired' }
  return { ok: true, claims: claims as Record<string, unknown> }
}
