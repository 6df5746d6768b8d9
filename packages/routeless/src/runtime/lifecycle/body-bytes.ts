/**
 * A body's bytes, read whole within a limit: taken whole where the adapter can (one wait), else chunk by chunk from a
 * ReadableStream or an async iterable. Past the limit, a 413; a read that fails, a 400.
 * @module
 */
import { HttpError, isHttpError } from '../base/errors.ts'
import type { WholeBody } from './request.ts'

export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${limit} bytes`)
}

/** A body's chunks, read one at a time, whatever the adapter gives: a ReadableStream or an async iterable. */
interface ChunkReader {
  // (Spelt out rather than DOM's `ReadableStreamReadResult`: the declarations name no type of DOM's library.)
  read(): Promise<{ done: true; value?: Uint8Array } | { done: false; value: Uint8Array }>
  cancel(): void
}

export function chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): ChunkReader {
  // Any stream with a reader, not only this realm's ReadableStream (@whatwg-node brings its own).
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    return { read: () => reader.read(), cancel: () => void reader.cancel().catch(() => {}) }
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  return {
    read: () => iterator.next() as ReturnType<ChunkReader['read']>,
    cancel: () => void iterator.return?.()?.catch(() => {}),
  }
}

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export function readBytes(
  request: Request | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  try {
    const body = request instanceof Request ? request.body : request
    if (body === null) return Promise.resolve(new Uint8Array(0))
    return bytesOf(body!, limit).then((bytes) => {
      if (bytes.byteLength > limit) throw tooLarge(limit)
      return bytes
    }, rejectUnreadable)
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * The body's bytes: taken whole when the adapter can (its promise is the answer: one wait; the caller checks the
 * limit), else chunk by chunk within `limit`.
 */
export function bytesOf(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const whole = typeof (body as Partial<WholeBody>).whole === 'function' ? (body as WholeBody).whole(limit) : undefined
  return whole !== undefined ? whole : readChunks(body, limit)
}

function rejectUnreadable(error: unknown): never {
  throw unreadable(error)
}

/** A failure of the read itself: a 400 unless it is one of ours already (413). */
export function unreadable(error: unknown): HttpError {
  return isHttpError(error) ? error : new HttpError(400, 'The request body could not be read', { cause: error })
}

/** `readBytes` chunk by chunk. */
async function readChunks(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const reader = chunksOf(body)
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      // The rest is the server's to drop (its lingering close), after the 413 is out.
      reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}
