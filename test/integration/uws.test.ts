/**
 * What only a real uWebSockets.js server shows: clients that leave, slow readers, bodies over the limit while they
 * stream, the exact bytes on the wire, and that a Fetch `Request` is built only for controllers that read one.
 * (Everything else is the conformance suite, which runs on the uws target too.)
 */
import { countRequestsBuilt } from '../_fetch-objects.ts'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type Application } from 'routeless'
import { serve, type RunningServer } from 'routeless/uws'

/** Resolvable from outside: lets a test and a controller meet without timers. */
function signal<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

const hooks = {
  entered: signal(),
  aborted: signal(),
  release: signal(),
  streamCancelled: signal(),
  pulled: 0,
  handlerCalls: 0,
}

const CHUNK = 64 * 1024
const STREAM_CHUNKS = 1024 // 64 MiB: far more than socket buffers hold

const app: () => Promise<Application> = () =>
  createApp({
    modules: {
      '': {
        Plain: class {
          GET() {
            return 'plain'
          }
        },
        Reads: class {
          declare request: Request
          GET() {
            return { header: this.request.headers.get('x-a'), method: this.request.method }
          }
        },
        Url: class {
          declare url: URL
          GET() {
            return this.url.searchParams.get('q')
          }
        },
        Address: class {
          declare env: Record<string, unknown>
          GET() {
            return this.env.remoteAddress
          }
        },
        Waits: class {
          declare request: Request
          async GET() {
            const signal = this.request.signal
            hooks.entered.resolve()
            await new Promise((r) => signal.addEventListener('abort', r))
            hooks.aborted.resolve()
            await hooks.release.promise
            return 'written after the client left'
          }
        },
        Endless: class {
          GET() {
            return new ReadableStream<Uint8Array>({
              pull(controller) {
                hooks.pulled++
                controller.enqueue(new Uint8Array(CHUNK).fill(97))
              },
              cancel() {
                hooks.streamCancelled.resolve()
              },
            })
          }
        },
        Big: class {
          GET() {
            let sent = 0
            return new ReadableStream<Uint8Array>({
              pull(controller) {
                hooks.pulled++
                controller.enqueue(new Uint8Array(CHUNK).fill(98))
                if (++sent === STREAM_CHUNKS) controller.close()
              },
            })
          }
        },
        Bytes: class {
          GET() {
            return new Uint8Array(3 * 1024 * 1024).fill(99)
          }
        },
        Empty: class {
          GET() {
            return null
          }
        },
        NotModified: class {
          declare response: { status?: number }
          GET() {
            this.response.status = 304
            return 'ignored'
          }
        },
        Sum: class {
          static accepts = ['application/octet-stream']
          declare body: Uint8Array
          POST() {
            let sum = 0
            for (const byte of this.body) sum = (sum + byte) % 65521
            return { size: this.body.byteLength, sum }
          }
        },
        Upload: class {
          static bodyLimit = 1024
          declare body: unknown
          POST() {
            hooks.handlerCalls++
            return this.body
          }
        },
      },
    },
  })

let server: RunningServer
let application: Application

beforeAll(async () => {
  application = await app()
  server = await serve(application, { host: '127.0.0.1', port: 0 })
})
afterAll(() => server.close())

interface RawResponse {
  head: string
  status: number
  headers: Map<string, string>
  body: Buffer
}

/** Sends raw bytes on a fresh connection and reads the answer until the server closes (`Connection: close`). */
function raw(text: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', reject)
    socket.on('close', () => resolve(parse(Buffer.concat(chunks))))
    socket.write(text)
  })
}

function parse(all: Buffer): RawResponse {
  const end = all.indexOf('\r\n\r\n')
  const head = all.subarray(0, end).toString()
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = new Map(
    lines.map(
      (l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string],
    ),
  )
  return { head, status: Number(statusLine!.split(' ')[1]), headers, body: all.subarray(end + 4) }
}

const get = (path: string, extra = '') => raw(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n${extra}\r\n`)

/** Waits until `read()` stops changing: a server that respects backpressure stops pulling, one that does not runs to the end. */
async function settled(read: () => number): Promise<number> {
  let last = -1
  let same = 0
  while (same < 5) {
    await new Promise((r) => setTimeout(r, 20))
    const now = read()
    same = now === last ? same + 1 : 0
    last = now
  }
  return last
}

describe('routeless/uws', () => {
  it('builds no Fetch Request for a controller that does not read this.request', async () => {
    await countRequestsBuilt(async (built) => {
      expect((await get('/plain')).body.toString()).toBe('"plain"')
      expect(built()).toBe(0)
      const reads = await get('/reads', 'X-A: yes\r\n')
      expect(JSON.parse(reads.body.toString())).toEqual({ header: 'yes', method: 'GET' })
      expect(built()).toBe(1)
    })
  })

  it('builds this.url on demand, and gives the peer address in this.env', async () => {
    expect((await get('/url?q=found')).body.toString()).toBe('"found"')
    expect((await get('/address')).body.toString()).toBe('"127.0.0.1"')
  })

  it('writes Date, Content-Length for known bodies and keeps the connection alive', async () => {
    const socket = connect(server.port, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (d) => received.push(d))
    socket.write('GET /plain HTTP/1.1\r\nHost: test\r\n\r\nGET /plain HTTP/1.1\r\nHost: test\r\n\r\n')
    await until(() => Buffer.concat(received).toString().split('"plain"').length === 3)
    socket.destroy()
    const text = Buffer.concat(received).toString()
    const [first] = text.split('"plain"')
    expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(first).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/)
    expect(first).toMatch(/\r\nContent-Length: 7\r\n/)
    expect(first).toMatch(/\r\ncontent-type: application\/json\r\n/i)
  })

  it('sends no body and no Content-Length for HEAD, 204 and 304', async () => {
    for (const [request, status] of [
      ['HEAD /plain', 200],
      ['GET /empty', 204],
      ['GET /not-modified', 304],
    ] as const) {
      const res = await raw(`${request} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`)
      expect(res.status).toBe(status)
      expect(res.headers.has('content-length')).toBe(false)
      expect(res.headers.has('transfer-encoding')).toBe(false)
      expect(res.body.byteLength).toBe(0)
    }
  })

  it('sends a large byte body with its Content-Length, complete', async () => {
    const res = await get('/bytes')
    expect(res.headers.get('content-length')).toBe(String(3 * 1024 * 1024))
    expect(res.body.byteLength).toBe(3 * 1024 * 1024)
    expect(res.body.every((b) => b === 99)).toBe(true)
  })

  it('reads no further from a streamed body than a slow client takes, then sends all of it chunked', async () => {
    hooks.pulled = 0
    const socket = connect(server.port, '127.0.0.1')
    socket.pause() // a client that reads nothing yet
    socket.write('GET /big HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n')
    const pulledWhilePaused = await settled(() => hooks.pulled)
    expect(pulledWhilePaused).toBeGreaterThan(0)
    expect(pulledWhilePaused).toBeLessThan(STREAM_CHUNKS / 2)
    const all = await readAll(socket)
    const res = parse(all)
    expect(res.headers.get('transfer-encoding')).toBe('chunked')
    expect(dechunk(res.body).byteLength).toBe(CHUNK * STREAM_CHUNKS)
    expect(hooks.pulled).toBe(STREAM_CHUNKS)
  })

  it('cancels the body stream when the client leaves mid-response, and keeps serving', async () => {
    const socket = connect(server.port, '127.0.0.1')
    socket.write('GET /endless HTTP/1.1\r\nHost: test\r\n\r\n')
    await new Promise((r) => socket.once('data', r))
    socket.destroy()
    await hooks.streamCancelled.promise
    expect((await get('/plain')).body.toString()).toBe('"plain"')
  })

  it('aborts this.request.signal when the client leaves, and writes nothing after', async () => {
    const socket = connect(server.port, '127.0.0.1')
    socket.on('error', () => {})
    socket.write('GET /waits HTTP/1.1\r\nHost: test\r\n\r\n')
    await hooks.entered.promise
    socket.destroy()
    await hooks.aborted.promise
    hooks.release.resolve() // the handler answers now: the adapter must drop it, not crash
    await new Promise((r) => setImmediate(r))
    expect((await get('/plain')).body.toString()).toBe('"plain"')
  })

  it('answers 413 to a chunked body over the limit without calling the handler', async () => {
    hooks.handlerCalls = 0
    const socket = connect(server.port, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (d) => received.push(d))
    socket.on('error', () => {})
    socket.write(
      'POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    )
    const chunk = `400\r\n${'x'.repeat(0x400)}\r\n`
    // Keep sending until the server answers: it must not wait for the end of a body it will refuse.
    while (received.length === 0) {
      if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r))
      await new Promise((r) => setImmediate(r))
    }
    await until(() => Buffer.concat(received).includes('}'))
    socket.destroy()
    const res = parse(Buffer.concat(received))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body.toString()).message).toBe('Request body is larger than the limit of 1024 bytes')
    expect(hooks.handlerCalls).toBe(0)
  })

  it('answers 413 at once to a Content-Length over the limit', async () => {
    const res = await raw(
      'POST /upload HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n' +
        'x'.repeat(5000),
    )
    expect(res.status).toBe(413)
  })

  it('survives a client that leaves while uploading', async () => {
    const socket = connect(server.port, '127.0.0.1')
    socket.write(
      'POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
    )
    await new Promise((r) => setImmediate(r))
    socket.destroy()
    const ok = await raw(
      'POST /upload HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    )
    expect(ok.status).toBe(200)
    expect(ok.body.toString()).toBe('{"a":1}')
  })

  it('reads a 1 MiB body of declared length that arrives in many pieces, whole and in order', async () => {
    const body = Buffer.alloc(1024 * 1024)
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 251
    let sum = 0
    for (const byte of body) sum = (sum + byte) % 65521
    const socket = connect(server.port, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (d) => received.push(d))
    socket.write(
      `POST /sum HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
    )
    for (let at = 0; at < body.length; at += 64 * 1024) {
      if (!socket.write(body.subarray(at, at + 64 * 1024))) await new Promise((r) => socket.once('drain', r))
      await new Promise((r) => setTimeout(r, 2))
    }
    await new Promise((r) => socket.once('close', r))
    const res = parse(Buffer.concat(received))
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body.toString())).toEqual({ size: body.length, sum })
  })

  it('answers 501 for TRACE, the one token outside routeless that this uWS build lets through', async () => {
    // uWebSockets.js 20.30 routes only GET POST HEAD PUT DELETE CONNECT OPTIONS TRACE PATCH and closes the
    // connection on any other method (QUERY, PROPFIND …) before routeless sees it: see docs/BENCHMARKS.md.
    const res = await raw('TRACE /plain HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n')
    expect(res.status).toBe(501)
    expect(JSON.parse(res.body.toString()).message).toBe('Method TRACE is not implemented')
  })

  it('drains in-flight answers on close', async () => {
    const second = await serve(application, { host: '127.0.0.1', port: 0 })
    const socket = connect(second.port, '127.0.0.1')
    socket.pause()
    socket.write('GET /big HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n')
    await settled(() => hooks.pulled)
    const closed = second.close()
    const all = await readAll(socket)
    await closed
    expect(dechunk(parse(all).body).byteLength).toBe(CHUNK * STREAM_CHUNKS)
    await expect(
      new Promise((resolve, reject) => connect(second.port, '127.0.0.1').on('connect', resolve).on('error', reject)),
    ).rejects.toThrow(/ECONNREFUSED/)
  })
})

function readAll(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    socket.on('data', (d) => chunks.push(d))
    socket.on('close', () => resolve(Buffer.concat(chunks)))
    socket.resume()
  })
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = body.indexOf('\r\n', at)
    const size = parseInt(body.subarray(at, eol).toString(), 16)
    if (size === 0) return Buffer.concat(out)
    out.push(body.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
}

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 5))
}
