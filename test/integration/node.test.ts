/**
 * What only a real node:http server shows: that routeless/node answers without Fetch objects (a `Request` is built
 * only for a controller that reads one), writes Content-Length for known bodies, streams the rest, and gives the
 * peer's address in `this.env`. (Everything else is the conformance suite and the protocol suite.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { serve, type RunningServer } from 'routeless/node'
import { countRequestsBuilt } from '../_fetch-objects.ts'
import { send } from '../protocol/_wire.ts'

let server: RunningServer

beforeAll(async () => {
  const app = await createApp(
    {
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
              return { header: this.request.headers.get('x-a'), method: this.request.method, url: this.request.url }
            }
          },
          Echo: class {
            declare body: unknown
            POST() {
              return this.body
            }
          },
          Address: class {
            declare env: Record<string, unknown>
            GET() {
              return this.env.remoteAddress
            }
          },
          Stream: class {
            GET() {
              let n = 0
              return new ReadableStream<Uint8Array>({
                pull(c) {
                  if (n++ < 3) c.enqueue(new TextEncoder().encode(`part${n};`))
                  else c.close()
                },
              })
            }
          },
        },
      },
    },
    { logger: { error: () => {} } },
  )
  server = await serve(app, { host: '127.0.0.1', port: 0 })
})
afterAll(() => server.close())

describe('routeless/node', () => {
  it('builds no Fetch Request for a controller that does not read this.request, one for a controller that does', async () => {
    await countRequestsBuilt(async (built) => {
      const echo =
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}'
      const { answers } = await send(
        server.port,
        ['GET /plain HTTP/1.1\r\nHost: x\r\n\r\n', echo, 'GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n'],
        { answers: 3 },
      )
      expect(answers.map((a) => a.body.toString())).toEqual([
        '"plain"',
        '{"a":1}',
        expect.stringContaining('"status":404'),
      ])
      expect(built()).toBe(0)
      const reads = await send(server.port, 'GET /reads?q=1 HTTP/1.1\r\nHost: example.test:8080\r\nX-A: yes\r\n\r\n', {
        answers: 1,
      })
      expect(JSON.parse(reads.answers[0]!.body.toString())).toEqual({
        header: 'yes',
        method: 'GET',
        url: 'http://example.test:8080/reads?q=1',
      })
      expect(built()).toBe(1)
    })
  })

  it('writes Content-Length and keep-alive for bodies in memory, chunked for streams', async () => {
    const { answers } = await send(
      server.port,
      'GET /plain HTTP/1.1\r\nHost: x\r\n\r\nGET /stream HTTP/1.1\r\nHost: x\r\n\r\n',
      { answers: 2 },
    )
    expect(answers[0]!.headers.get('content-length')).toBe('7')
    expect(answers[0]!.headers.get('connection')).toBe('keep-alive')
    expect(answers[0]!.headers.get('date')).toMatch(/GMT$/)
    expect(answers[1]!.headers.get('transfer-encoding')).toBe('chunked')
    expect(answers[1]!.body.toString()).toBe('part1;part2;part3;')
  })

  it('gives the peer address in this.env', async () => {
    expect(await (await fetch(`${server.url}/address`)).json()).toBe('127.0.0.1')
  })
})
