/**
 * TypeIDs (`job_01h8x9y2z3a4b5c6d7e8f9g0h1`): a prefix, `_`, and a UUIDv7 written as 26 characters of lower-case
 * Crockford base32 (no i, l, o, u). Implemented here from the TypeID spec: 128 bits, big-endian, two leading zero bits.
 */
import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

/** A UUIDv7 as 16 bytes: 48-bit Unix milliseconds, version 7, 74 random bits, variant 10. */
export function uuidv7Bytes(now = Date.now()): Uint8Array {
  const bytes = new Uint8Array(16)
  bytes.set(randomBytes(10), 6)
  let ms = now
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return bytes
}

/** 16 bytes → 26 base32 characters (the first one carries only 3 bits, so it is 0–7). */
export function encodeBase32(bytes: Uint8Array): string {
  let value = 0n
  for (const b of bytes) value = (value << 8n) | BigInt(b)
  let out = ''
  for (let i = 0; i < 26; i++) {
    out = ALPHABET[Number(value & 31n)] + out
    value >>= 5n
  }
  return out
}

/** 26 base32 characters → 16 bytes, or undefined when the text is not a valid suffix. */
export function decodeBase32(text: string): Uint8Array | undefined {
  if (text.length !== 26 || text[0]! > '7') return undefined
  let value = 0n
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch)
    if (digit < 0) return undefined
    value = (value << 5n) | BigInt(digit)
  }
  const bytes = new Uint8Array(16)
  for (let i = 15; i >= 0; i--) {
    bytes[i] = Number(value & 255n)
    value >>= 8n
  }
  return bytes
}

export function newTypeId(prefix: string, now = Date.now()): string {
  return `${prefix}_${encodeBase32(uuidv7Bytes(now))}`
}

/** True for `<prefix>_<26 valid base32 characters>`. */
export function isTypeId(value: string, prefix: string): boolean {
  return value.startsWith(`${prefix}_`) && decodeBase32(value.slice(prefix.length + 1)) !== undefined
}

/** The UUID form (`0190…-7…`) of a TypeID, for logs and interop. */
export function typeIdToUuid(value: string): string | undefined {
  const bytes = decodeBase32(value.slice(value.indexOf('_') + 1))
  if (!bytes) return undefined
  const hex = Buffer.from(bytes).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
