/** The developer-key admin endpoints' inputs as the handlers' types (routeless checks them), and the key lookup. */
import { HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore, LimitsUpdate } from '../keys/key-store.ts'

export const MAX_LABEL_LENGTH = 256

/**
 * @maxLength 256
 * @errorMessage Parameter 'label' may have at most 256 characters.
 */
export type KeyLabel = string

/**
 * An integer ≥ 0; null (or `null` in a form) is unlimited.
 * @integer
 * @minimum 0
 */
export type UsageLimit = number

/** POST /v2/admin/developer-keys. */
export interface NewDeveloperKey {
  label?: KeyLabel | null
  [extra: string]: unknown
}

/** The developer key (two GUIDs joined by a colon). */
export interface KeyRef {
  key_id: string
  [extra: string]: unknown
}

/** PUT /v2/admin/developer-keys/label. */
export interface KeyLabelChange extends KeyRef {
  label: KeyLabel
}

/** PUT /v2/admin/developer-keys/limits: the limits given change; absent ones stay. */
export interface KeyLimits extends KeyRef {
  characters?: UsageLimit | null
  speech_to_text_milliseconds?: UsageLimit | null
}

/** The developer key named by `key_id`; 404 when there is none (admin keys are not managed here). */
export async function developerKey(keyId: string, keys: KeyStore): Promise<ApiKeyRecord> {
  const key = await keys.get(keyId)
  if (!key || key.isAdmin) throw new HttpError(404, `Developer key '${keyId}' not found.`)
  return key
}

export function limitsUpdate(kwargs: KeyLimits): LimitsUpdate {
  return { characters: kwargs.characters, speechToTextMilliseconds: kwargs.speech_to_text_milliseconds }
}
