/**
 * API keys are stored twice: as an scrypt hash (authentication never needs the key back) and sealed with AES-256-GCM
 * under the server secret, because signing webhooks and sync responses (`sid_request`) needs the key itself.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/** A purpose-bound 32-byte key derived from the server secret (`jwt`, `seal`, …). */
export function deriveKey(serverSecret: string, purpose: string): Buffer {
  return createHmac('sha256', serverSecret).update(`routeless-verification:${purpose}`).digest()
}

export function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`
}

export function unseal(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unknown sealed secret format')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
}
