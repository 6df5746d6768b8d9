/** A key as the rest of the application sees it, and its public JSON form (DeepL's `ApiKey`). */

export interface ApiKeyRecord {
  keyId: string
  label: string
  masked: string
  isAdmin: boolean
  creationTime: string
  deactivatedTime: string | null
  characterLimit: number | null
  speechToTextMillisecondsLimit: number | null
}

export interface ApiKeyJson {
  key_id: string
  label: string
  creation_time: string
  deactivated_time: string | null
  is_deactivated: boolean
  usage_limits: { characters: number | null; speech_to_text_milliseconds: number | null }
  /** The secret: only in the creation response, the one time it is shown. */
  key?: string
}

export function toApiKeyJson(record: ApiKeyRecord, secret?: string): ApiKeyJson {
  const json: ApiKeyJson = {
    key_id: record.keyId,
    label: record.label,
    creation_time: record.creationTime,
    deactivated_time: record.deactivatedTime,
    is_deactivated: record.deactivatedTime !== null,
    usage_limits: {
      characters: record.characterLimit,
      speech_to_text_milliseconds: record.speechToTextMillisecondsLimit,
    },
  }
  if (secret !== undefined) json.key = secret
  return json
}
