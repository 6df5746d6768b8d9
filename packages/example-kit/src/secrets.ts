/** Secrets (passwords, API keys) are stored only as scrypt hashes and compared in constant time. */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash } from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(secret, salt, 32, PARAMS)
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

/** Constant-time check of `secret` against a stored `hashSecret` value. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, N, r, p, salt, hash] = parts
  const expected = Buffer.from(hash!, 'base64url')
  const actual = await scrypt(secret, Buffer.from(salt!, 'base64url'), expected.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A fast, non-reversible lookup key for high-entropy secrets (API keys, session ids): SHA-256, hex. */
export function lookupKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A random token of `bytes` bytes (default 32 = 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}
