/**
 * The Voice WebSocket's messages, as DeepL names them: maps with the message name as their one key
 * (`{"source_media_chunk": {"data": …}}`). The types are the contract: routeless parses and checks each client
 * message against `VoiceClientMessage` before the session sees it, and `routeless asyncapi` documents both sides.
 * Two encodings: `json` (TEXT frames, binary fields base64, routeless's own) and `msgpack` (BINARY frames, binary
 * fields raw), which a session decodes and encodes here.
 */
import { decode, encode } from '@msgpack/msgpack'
import type { MessageProblem } from 'routeless'

export type MessageFormat = 'json' | 'msgpack'

/**
 * Bytes, as base64 text.
 * @pattern ^[A-Za-z0-9+/]*={0,2}$
 */
export type Base64 = string

/** A piece of the source audio, in the session's `source_media_content_type`. */
export interface SourceMediaChunk {
  source_media_chunk: { data: Base64 }
}

/** The source audio is complete: the session concludes, sends its end messages and closes. */
export interface EndOfSourceMedia {
  end_of_source_media: Record<string, never>
}

/** What the client sends. */
export type VoiceClientMessage = SourceMediaChunk | EndOfSourceMedia

/** A stretch of speech, in milliseconds from the start of the audio. */
export interface TranscriptSegment {
  language?: string
  text: string
  start_time: number
  end_time: number
}

export interface SourceTranscriptUpdate {
  source_transcript_update: { concluded: TranscriptSegment[]; tentative: TranscriptSegment[] }
}

export interface TargetTranscriptUpdate {
  target_transcript_update: { language: string; concluded: TranscriptSegment[]; tentative: TranscriptSegment[] }
}

/** Synthesised speech of a translation. */
export interface TargetMediaChunk {
  target_media_chunk: { language: string; content_type: string; data: Base64 }
}

export interface EndOfSourceTranscript {
  end_of_source_transcript: Record<string, never>
}

export interface EndOfTargetTranscript {
  end_of_target_transcript: { language: string }
}

export interface EndOfStream {
  end_of_stream: Record<string, never>
}

/** Why the session ends (a close frame follows). */
export interface VoiceError {
  error: { request_type: string; error_code: number; reason_code: number; error_message: string }
}

/** What the server sends. */
export type VoiceServerMessage =
  | SourceTranscriptUpdate
  | TargetTranscriptUpdate
  | TargetMediaChunk
  | EndOfSourceTranscript
  | EndOfTargetTranscript
  | EndOfStream
  | VoiceError

const CLIENT_MESSAGES = ['source_media_chunk', 'end_of_source_media']

/** A msgpack frame as the message it stands for, its binary fields as base64 (what the checks read). */
export function decodeMsgpack(frame: string | Uint8Array): unknown {
  if (typeof frame === 'string')
    throw new Error('Text frame received, but the session uses message_format msgpack (BINARY frames).')
  let message: unknown
  try {
    message = decode(frame)
  } catch {
    throw new Error('Message is not valid MessagePack.')
  }
  const chunk = (message as { source_media_chunk?: { data?: unknown } } | null)?.source_media_chunk
  if (chunk && typeof chunk === 'object' && 'data' in chunk) {
    if (!(chunk.data instanceof Uint8Array)) throw new Error('source_media_chunk.data must be binary.')
    chunk.data = Buffer.from(chunk.data).toString('base64')
  }
  return message
}

/** A server message as a msgpack frame, its base64 fields as bytes. */
export function encodeMsgpack(message: VoiceServerMessage): Uint8Array {
  if (!('target_media_chunk' in message)) return encode(message)
  const chunk = message.target_media_chunk
  return encode({ target_media_chunk: { ...chunk, data: Buffer.from(chunk.data, 'base64') } })
}

/** What the session answers to a message the checks refused, in DeepL's words where it has them. */
export function refusal(problem: MessageProblem, format: MessageFormat): string {
  if (format === 'json' && typeof problem.frame !== 'string')
    return 'Binary frame received, but the session uses message_format json (TEXT frames).'
  if (!('value' in problem)) return problem.message === 'is not JSON' ? 'Message is not valid JSON.' : problem.message
  const value = problem.value
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []
  if (keys.length !== 1)
    return 'A message is an object with exactly one key: source_media_chunk or end_of_source_media.'
  if (!CLIENT_MESSAGES.includes(keys[0]!)) return `Unknown message '${keys[0]}'.`
  return `${problem.path.slice(1).replace(/\//g, '.')} ${problem.message}.`
}
