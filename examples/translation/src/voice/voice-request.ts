/** The body of `POST /v3/voice/realtime`, as the official OpenAPI names it, and its checks beyond the types. */
import { HttpError } from 'routeless'
import { checkSourceFormat, normalizeContentType } from '../speech/audio-format.ts'
import { VOICE_TTS_LANGUAGES, voiceSource, voiceTarget } from './voice-languages.ts'
import type { VoiceSessionConfig } from './voice-sessions.ts'

export interface VoiceSessionRequest {
  source_media_content_type: string
  message_format?: 'json' | 'msgpack'
  source_language?: string
  source_language_mode?: 'auto' | 'fixed'
  /** @maxItems 5 */
  target_languages?: string[]
  /** @maxItems 1 */
  target_media_languages?: string[]
  target_media_content_type?: string
  target_media_voice?: 'male' | 'female'
  /** @format uuid */
  spoken_terms_id?: string
  glossary_id?: string
  formality?: 'default' | 'formal' | 'more' | 'informal' | 'less'
}

/** Target audio this server can produce (espeak-ng, as raw PCM). */
export const TARGET_MEDIA_TYPES = ['audio/pcm;encoding=s16le;rate=16000', 'audio/pcm;encoding=s16le;rate=24000']

export function readVoiceSessionRequest(body: VoiceSessionRequest): VoiceSessionConfig {
  const format = checkSourceFormat(body.source_media_content_type)
  if (!format.ok) throw new HttpError(400, format.message)
  const sourceLanguage = body.source_language ? voiceSource(body.source_language) : undefined
  if (body.source_language && !sourceLanguage) throw new HttpError(400, "Value for 'source_language' not supported.")
  const mode = body.source_language_mode ?? 'auto'
  if (mode === 'fixed' && !sourceLanguage)
    throw new HttpError(400, "Parameter 'source_language' is required when 'source_language_mode' is fixed.")
  const targets = (body.target_languages ?? []).map((t) => voiceTarget(t) ?? bad('target_languages'))
  const media = (body.target_media_languages ?? []).map((t) =>
    VOICE_TTS_LANGUAGES.includes(voiceTarget(t) ?? '') ? voiceTarget(t)! : bad('target_media_languages'),
  )
  for (const m of media) if (!targets.includes(m)) targets.push(m)
  if (new Set(targets).size !== targets.length)
    throw new HttpError(400, "Value for 'target_languages' contains a language twice.")
  if (targets.length > 5) throw new HttpError(400, "Parameter 'target_languages' may name at most 5 languages.")
  let mediaType: string | undefined
  if (media.length > 0) {
    mediaType = normalizeContentType(body.target_media_content_type ?? 'audio/webm;codecs=opus')
    if (!TARGET_MEDIA_TYPES.includes(mediaType))
      throw new HttpError(
        400,
        `Target media content type '${mediaType}' is not supported by this server: use ${TARGET_MEDIA_TYPES.join(' or ')}.`,
      )
  }
  if (body.glossary_id && !sourceLanguage)
    throw new HttpError(400, "Parameter 'source_language' is required when 'glossary_id' is given.")
  if (body.spoken_terms_id) throw new HttpError(400, 'Spoken terms lists are not supported by this server.')
  return {
    messageFormat: body.message_format ?? 'json',
    sourceMediaContentType: format.type,
    sourceLanguage,
    sourceLanguageMode: mode,
    targetLanguages: targets,
    targetMediaLanguages: media,
    targetMediaContentType: mediaType,
    targetMediaVoice: body.target_media_voice,
    glossaryId: body.glossary_id,
    formality: body.formality ?? 'default',
  }
}

function bad(name: string): never {
  throw new HttpError(400, `Value for '${name}' not supported.`)
}
