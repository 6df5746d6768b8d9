/**
 * A request body on uWebSockets.js: the chunks uWS hands over (copied: uWS reuses its buffer), read by the core as an
 * async iterable, with the socket paused while too much is unread.
 * @module
 */
import type { HttpResponse } from 'uWebSockets.js'
import type { WholeBody } from '../../lifecycle/request.ts'

/** Unread request body buffered before the socket is paused. */
const BODY_HIGH_WATER = 256 * 1024

export class BodyQueue implements AsyncIterableIterator<Uint8Array>, WholeBody {
  taken = false
  private readonly res: HttpResponse
  /** The declared Content-Length (undefined for a chunked body). */
  private readonly length: number | undefined
  /** Read from already: `whole` is no longer offered. */
  private started = false
  /** `whole`'s reader, waiting for the last chunk. */
  private waiter: { resolve: (bytes: Uint8Array) => void; reject: (e: Error) => void } | undefined
  private chunks: Uint8Array[] = []
  private buffered = 0
  private ended = false
  private stopped = false
  private paused = false
  private error: Error | undefined
  private reader: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: Error) => void } | undefined
  /** Bytes dropped since `stop`, and who waits for the end of what is dropped (see `afterStop`). */
  private dropped = 0
  private dropWatch: { bytes: number; done: (ended: boolean) => void } | undefined

  constructor(res: HttpResponse, length: number | undefined) {
    this.res = res
    this.length = length
  }

  /**
   * The whole body in one piece, when its length is declared and within `limit` (uWS holds it to that length):
   * one wait instead of one per chunk. Else undefined, and the body is read chunk by chunk.
   */
  whole(limit: number): Promise<Uint8Array> | undefined {
    if (this.started || this.length === undefined || this.length > limit || this.stopped) return undefined
    this.started = true
    if (this.ended) return Promise.resolve(this.drain())
    if (this.paused) {
      this.paused = false
      this.res.resume()
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject }
    })
  }

  /** What is buffered, as one array (for `whole`). */
  private drain(): Uint8Array {
    const chunks = this.chunks
    this.chunks = []
    this.buffered = 0
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
  }

  /** The whole body has arrived (or the client left). */
  get complete(): boolean {
    return this.ended || this.error !== undefined
  }

  /**
   * Once stopped: calls `done(true)` when the rest of the body has arrived (all of it dropped), or `done(false)` as
   * soon as more than `bytes` were dropped.
   */
  afterStop(bytes: number, done: (ended: boolean) => void): void {
    if (this.ended) return done(true)
    this.dropWatch = { bytes, done }
  }

  push(chunk: ArrayBuffer, last: boolean): void {
    if (last) this.ended = true
    if (this.stopped) {
      const watch = this.dropWatch
      if (watch === undefined) return
      this.dropped += chunk.byteLength
      if (last || this.dropped > watch.bytes) {
        this.dropWatch = undefined
        watch.done(last)
      }
      return
    }
    if (this.waiter !== undefined) {
      // Taken whole: the declared length bounds what is buffered, so the socket is never paused.
      if (chunk.byteLength > 0) this.chunks.push(new Uint8Array(chunk.slice(0)))
      if (last) {
        const waiter = this.waiter
        this.waiter = undefined
        this.ended = true
        waiter.resolve(this.drain())
      }
      return
    }
    if (chunk.byteLength > 0) {
      const copy = new Uint8Array(chunk.slice(0))
      const reader = this.reader
      if (reader !== undefined && this.chunks.length === 0) {
        this.reader = undefined
        reader.resolve({ done: false, value: copy })
      } else {
        this.chunks.push(copy)
        this.buffered += copy.byteLength
      }
    }
    if (last) {
      this.ended = true
      if (this.chunks.length === 0) this.settleReader()
    } else if (this.buffered > BODY_HIGH_WATER && !this.paused) {
      this.paused = true
      this.res.pause()
    }
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    this.started = true
    if (this.error) return Promise.reject(this.error)
    const chunk = this.chunks.shift()
    if (chunk !== undefined) {
      this.buffered -= chunk.byteLength
      if (this.paused && this.buffered <= BODY_HIGH_WATER / 2) {
        this.paused = false
        this.res.resume()
      }
      return Promise.resolve({ done: false, value: chunk })
    }
    if (this.ended || this.stopped) return Promise.resolve({ done: true, value: undefined })
    return new Promise((resolve, reject) => {
      this.reader = { resolve, reject }
    })
  }

  /** The reader gave up (413, a cancelled stream): drop the rest as it arrives. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.stop()
    return Promise.resolve({ done: true, value: undefined })
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this
  }

  /** No more reading: the answer is out. Drop what is buffered and what comes, and let the socket flow again. */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    const waiter = this.waiter
    this.waiter = undefined
    waiter?.reject(new Error('The request body is no longer read'))
    this.chunks = []
    this.buffered = 0
    if (this.paused && this.error === undefined) {
      this.paused = false
      this.res.resume()
    }
    this.settleReader()
  }

  fail(error: Error): void {
    this.error = error
    this.stopped = true
    const reader = this.reader
    this.reader = undefined
    reader?.reject(error)
    const waiter = this.waiter
    this.waiter = undefined
    waiter?.reject(error)
  }

  private settleReader(): void {
    const reader = this.reader
    this.reader = undefined
    reader?.resolve({ done: true, value: undefined })
  }
}
