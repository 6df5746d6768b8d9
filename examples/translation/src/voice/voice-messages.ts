/**
 * The Voice WebSocket's message encodings: `json` (TEXT frames, binary fields base64) or `msgpack` (BINARY frames,
 * binary fields raw), both maps with the message name as their one key (`{"source_media_chunk": {"data": …}}`).
 */
import { decode, encode } from '@msgpack/msgpack'

export type MessageFormat = 'json' | 'msgpack'

/** What the client may send. */
export type ClientMessage = { kind: 'chunk'; data: Uint8Array } | { kind: 'end' }

export class MessageError extends Error {}

export function decodeClientMessage(format: MessageFormat, frame: string | Uint8Array): ClientMessage {
  let message: unknown
  if (format === 'json') {
    if (typeof frame !== 'string')
      throw new MessageError('Binary frame received, but the session uses message_format json (TEXT frames).')
    try {
      message = JSON.parse(frame)
    } catch {
      throw new MessageError('Message is not valid JSON.')
    }
  } else {
    if (typeof frame === 'string')
      throw new MessageError('Text frame received, but the session uses message_format msgpack (BINARY frames).')
    try {
      message = decode(frame)
    } catch {
      throw new MessageError('Message is not valid MessagePack.')
    }
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message) || Object.keys(message).length !== 1) {
    throw new MessageError('A message is an object with exactly one key: source_media_chunk or end_of_source_media.')
  }
  const record = message as Record<string, unknown>
  if ('end_of_source_media' in record) return { kind: 'end' }
  const chunk = record.source_media_chunk as { data?: unknown } | undefined
  if (chunk === undefined) throw new MessageError(`Unknown message '${Object.keys(record)[0]}'.`)
  if (typeof chunk !== 'object' || chunk === null)
    throw new MessageError('source_media_chunk must be an object with data.')
  if (format === 'json') {
    if (typeof chunk.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(chunk.data))
      throw new MessageError('source_media_chunk.data must be a base64 string.')
    return { kind: 'chunk', data: new Uint8Array(Buffer.from(chunk.data, 'base64')) }
  }
  if (!(chunk.data instanceof Uint8Array)) throw new MessageError('source_media_chunk.data must be binary.')
  return { kind: 'chunk', data: chunk.data }
}

/** A server message in the session's encoding; `Uint8Array` fields become base64 in JSON. */
export function encodeServerMessage(format: MessageFormat, message: Record<string, unknown>): string | Uint8Array {
  if (format === 'msgpack') return encode(message)
  return JSON.stringify(message, (_, value) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
  )
}
