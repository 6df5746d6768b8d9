/** Inputs of the developer-key admin endpoints. */
import { HttpError, type Kwargs } from 'routeless'
import { notSupported, optionalString, requiredString } from '../http/params.ts'
import type { KeyStore, LimitsUpdate } from '../keys/key-store.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'

export const MAX_LABEL_LENGTH = 256

export function readLabel(kwargs: Kwargs, required: boolean): string | undefined {
  const label = required ? requiredString(kwargs, 'label') : optionalString(kwargs, 'label')
  if (label !== undefined && [...label].length > MAX_LABEL_LENGTH) throw new HttpError(400, `Parameter 'label' may have at most ${MAX_LABEL_LENGTH} characters.`)
  return label
}

/** The developer key named by `key_id`; 404 when there is none (admin keys are not managed here). */
export async function developerKey(kwargs: Kwargs, keys: KeyStore): Promise<ApiKeyRecord> {
  const keyId = requiredString(kwargs, 'key_id')
  const key = await keys.get(keyId)
  if (!key || key.isAdmin) throw new HttpError(404, `Developer key '${keyId}' not found.`)
  return key
}

/** `characters` / `speech_to_text_milliseconds`: absent = unchanged, null = unlimited, else an integer ≥ 0. */
export function readLimits(kwargs: Kwargs): LimitsUpdate {
  return { characters: readLimit(kwargs, 'characters'), speechToTextMilliseconds: readLimit(kwargs, 'speech_to_text_milliseconds') }
}

function readLimit(kwargs: Kwargs, name: string): number | null | undefined {
  if (!(name in kwargs)) return undefined
  const value = kwargs[name]
  if (value === null || value === 'null') return null
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < 0) throw notSupported(name)
  return n
}
