/** The body of `POST /v1/jobs/voice/translate` as the official OpenAPI shapes it, and what this server can do of it. */
import { HttpError } from 'routeless'
import { canonicalTarget, isSourceLanguage } from '../languages/catalogue.ts'
import { normalizeContentType } from '../speech/audio-format.ts'

export interface VoiceJobSourceFile {
  /** @minLength 1 */
  name: string
  content_type: 'audio/mpeg' | 'audio/wav' | 'audio/ogg' | 'audio/flac' | 'audio/mp4' | 'audio/webm'
  /**
   * @integer
   * @minimum 1
   * @maximum 1073741824
   */
  content_length: number
}

export interface VoiceJobTarget {
  language: string
  type: string
}

export interface VoiceJobCreateRequest {
  source_file: VoiceJobSourceFile
  parameters?: { source_language?: string }
  /** @minItems 1 */
  targets: VoiceJobTarget[]
  /** Query: `signed_url` adds a pre-signed upload URL. */
  include?: Array<'signed_url'>
}

/** Every output type of the spec; this server writes the text ones and raw PCM speech (espeak-ng). */
export const OUTPUT_TYPES = [
  'text/plain',
  'application/x-subrip',
  'audio/opus',
  'audio/flac',
  'audio/pcm;encoding=s16le;rate=16000',
  'audio/pcm;encoding=s16le;rate=24000',
  'audio/pcm;encoding=ulaw;rate=8000',
  'audio/pcm;encoding=alaw;rate=8000',
  'audio/x-matroska;codecs=aac',
  'audio/x-matroska;codecs=flac',
  'audio/x-matroska;codecs=opus',
  'audio/x-matroska;codecs=pcm_s16le;rate=16000',
  'audio/x-matroska;codecs=pcm_s16le;rate=24000',
  'video/mp2t;codecs=aac',
  'video/mp2t;codecs=opus',
  'audio/ogg;codecs=flac',
  'audio/ogg;codecs=opus',
  'audio/webm;codecs=opus',
]
export const WRITTEN_TYPES = [
  'text/plain',
  'application/x-subrip',
  'audio/pcm;encoding=s16le;rate=16000',
  'audio/pcm;encoding=s16le;rate=24000',
]
/** Source files this server decodes: PCM WAV and Ogg/Opus. */
export const READ_SOURCE_TYPES = ['audio/wav', 'audio/ogg']

export interface VoiceJobSpec {
  sourceFile: VoiceJobSourceFile
  sourceLanguage: string | undefined
  targets: VoiceJobTarget[]
}

export function readVoiceJobRequest(body: VoiceJobCreateRequest, maxBytes: number): VoiceJobSpec {
  if (!READ_SOURCE_TYPES.includes(body.source_file.content_type)) {
    throw new HttpError(
      400,
      `/source_file/content_type: ${body.source_file.content_type} is not supported by this server (use ${READ_SOURCE_TYPES.join(' or ')})`,
    )
  }
  if (body.source_file.content_length > maxBytes)
    throw new HttpError(413, `/source_file/content_length: this server accepts at most ${maxBytes} bytes`)
  const source = body.parameters?.source_language
  if (source !== undefined && !isSourceLanguage(source))
    throw new HttpError(400, '/parameters/source_language: Value is not valid')
  const targets = body.targets.map((t, i) => {
    const type = normalizeContentType(t.type)
    if (!OUTPUT_TYPES.includes(type)) throw new HttpError(400, `/targets/${i}/type: Value is not valid`)
    if (!WRITTEN_TYPES.includes(type))
      throw new HttpError(
        400,
        `/targets/${i}/type: ${type} is not supported by this server (use ${WRITTEN_TYPES.join(', ')})`,
      )
    if (!canonicalTarget(t.language)) throw new HttpError(400, `/targets/${i}/language: Value is not valid`)
    return { language: t.language, type: t.type }
  })
  return { sourceFile: body.source_file, sourceLanguage: source?.toLowerCase(), targets }
}
