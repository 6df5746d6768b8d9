/** Compact HS256 JSON Web Tokens with `jose`: sign, and verify signature plus `exp` (which must be there). */
import { errors, jwtVerify, SignJWT } from 'jose'

export function signJwt(claims: Record<string, unknown>, key: Uint8Array): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key)
}

export type JwtCheck =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' }

/** Checks the HS256 signature (no other algorithm) and that `exp` (seconds) is in the future. */
export async function verifyJwt(token: string, key: Uint8Array, now = new Date()): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      currentDate: now,
    })
    return { ok: true, claims: payload as Record<string, unknown> }
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'signature' }
    // A token without `exp` never expires: refused as expired, as before jose.
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' }
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'exp')
      return { ok: false, reason: 'expired' }
    return { ok: false, reason: 'malformed' }
  }
}
