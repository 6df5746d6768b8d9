/** `Authorization: DeepL-Auth-Key <key>` → the key record; 403 for a missing, unknown or deactivated key. */
import { HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore } from '../keys/key-store.ts'

const SCHEME = /^DeepL-Auth-Key\s+(\S.*)$/i

export const MISSING_KEY =
  "Authorization failed. Please supply a valid key in the header 'Authorization: DeepL-Auth-Key <key>'."
export const UNKNOWN_KEY = 'Authorization failed. The key is not valid.'
export const DEACTIVATED_KEY = 'Authorization failed. The key has been deactivated.'

/** `headers`: the controller's `this.headers` (or a Fetch `Headers`). */
export async function authenticate(keys: KeyStore, headers: Pick<Headers, 'get'>): Promise<ApiKeyRecord> {
  const header = headers.get('authorization')
  return authenticateSecret(keys, header ? SCHEME.exec(header.trim())?.[1]?.trim() : undefined)
}

/** The same checks for a secret given another way (the translator page's form). */
export async function authenticateSecret(keys: KeyStore, secret: string | undefined): Promise<ApiKeyRecord> {
  if (!secret) throw new HttpError(403, MISSING_KEY)
  const key = await keys.findBySecret(secret)
  if (!key) throw new HttpError(403, UNKNOWN_KEY)
  if (key.deactivatedTime !== null) throw new HttpError(403, DEACTIVATED_KEY)
  return key
}
