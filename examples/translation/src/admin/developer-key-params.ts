/** Parameter schemas of the developer-key admin endpoints (routeless `static params`, DeepL's messages). */
import { HttpError, params } from 'routeless'
import { z } from 'zod'
import { notSupportedMessage, optionalText, requiredText } from '../http/schemas.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore, LimitsUpdate } from '../keys/key-store.ts'

export const MAX_LABEL_LENGTH = 256
const labelLength = { length: MAX_LABEL_LENGTH, message: `Parameter 'label' may have at most ${MAX_LABEL_LENGTH} characters.` }
const keyId = requiredText('key_id').describe('The developer key (two GUIDs joined by a colon)')

/** `characters` / `speech_to_text_milliseconds`: absent = unchanged, null (or `null` in a form) = unlimited, else an integer ≥ 0. */
function limit(name: string) {
  const message = notSupportedMessage(name)
  return z.union([z.int({ error: message }).min(0, message), z.null(), z.literal('null').transform(() => null)], { error: message }).optional()
}

export const createKeyParams = params({ summary: 'Create a developer key (its secret is in `key`, shown once)', tags: ['admin'], kwargs: z.object({ label: optionalText('label', labelLength) }) })
export const keyIdParams = params({ summary: 'Deactivate a developer key for good', tags: ['admin'], kwargs: z.object({ key_id: keyId }) })
export const labelParams = params({ summary: 'Rename a developer key', tags: ['admin'], kwargs: z.object({ key_id: keyId, label: requiredText('label', labelLength) }) })
export const limitsParams = params({
  summary: "Set a developer key's usage limits (fields given only)",
  tags: ['admin'],
  kwargs: z.object({ key_id: keyId, characters: limit('characters'), speech_to_text_milliseconds: limit('speech_to_text_milliseconds') }),
})

/** The developer key named by `key_id`; 404 when there is none (admin keys are not managed here). */
export async function developerKey(keyId: string, keys: KeyStore): Promise<ApiKeyRecord> {
  const key = await keys.get(keyId)
  if (!key || key.isAdmin) throw new HttpError(404, `Developer key '${keyId}' not found.`)
  return key
}

export function limitsUpdate(kwargs: { characters?: number | null; speech_to_text_milliseconds?: number | null }): LimitsUpdate {
  return { characters: kwargs.characters, speechToTextMilliseconds: kwargs.speech_to_text_milliseconds }
}
