/** What a new key is made of: its public id, its secret and the masked form reports show. */
import { randomUUID } from 'node:crypto'

/** `key_id`: "two valid GUIDs separated by a colon", the format of DeepL's admin API. */
export function newKeyId(): string {
  return `${randomUUID()}:${randomUUID()}`
}

/**
 * A new secret in DeepL's shape: a GUID (122 random bits), with `:adm` for admin keys like DeepL's own.
 * Developer keys carry no `:fx` suffix, so clients treat them as Pro keys (they use `serverUrl` anyway).
 */
export function newSecret(admin: boolean): string {
  return admin ? `${randomUUID()}:adm` : randomUUID()
}

/** The first and last four characters around `****` (`dc88****3a2c`), as DeepL's usage reports show keys. */
export function maskSecret(secret: string): string {
  if (secret.length <= 8) return '****'
  return `${secret.slice(0, 4)}****${secret.slice(-4)}`
}
