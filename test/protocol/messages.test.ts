/** Message handling: HTTP/1.0, pipelining, chunked bodies with trailers, bodies over the limit, Blob answers. */
import { expect } from 'vitest'
import { BODY_LIMIT, describeServers, probe } from './_servers.ts'
import { open, send } from './_wire.ts'

describeServers('messages', (server, name) => {
  probe(
    name,
    'HTTP/1.0 requests are answered (with and without Host)',
    async () => {
      for (const request of ['GET /files/a HTTP/1.0\r\n\r\n', 'GET /files/b HTTP/1.0\r\nHost: x\r\n\r\n']) {
        const { answers, raw, closed } = await send(server().port, request)
        expect(
          answers.map((a) => a.status),
          raw,
        ).toEqual([200])
        expect(closed).toBe(true)
      }
    },
    'uWS 20.30 never hands an HTTP/1.0 request to routeless: the connection is held unanswered until its idle timeout',
  )

  probe(
    name,
    'pipelined requests behind an async answer are all answered, in order',
    async () => {
      const requests = ['/slow/0', '/fast/1', '/slow/2', '/fast/3']
        .map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`)
        .join('')
      const { answers, raw } = await send(server().port, requests, { answers: 4 })
      expect(
        answers.map((a) => a.body.toString()),
        raw,
      ).toEqual(['"slow 0"', '"fast 1"', '"slow 2"', '"fast 3"'])
    },
    'uWS drops the requests pipelined behind one answered asynchronously and closes the connection',
  )

  probe(
    name,
    '50 pipelined requests behind an async answer are all answered, in order',
    async () => {
      const paths = ['/slow/0', ...Array.from({ length: 50 }, (_, i) => `/fast/${i + 1}`)]
      const requests = paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join('')
      const { answers, raw } = await send(server().port, requests, { answers: paths.length })
      expect(
        answers.map((a) => a.body.toString()),
        raw.slice(0, 300),
      ).toEqual(['"slow 0"', ...Array.from({ length: 50 }, (_, i) => `"fast ${i + 1}"`)])
    },
    'uWS drops the requests pipelined behind one answered asynchronously and closes the connection',
  )

  probe(
    name,
    'a chunked body with a trailer is read and answered, and the connection stays usable',
    async () => {
      const body = '{"a":1}'
      const request = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\nX-Trailer: yes\r\n\r\n`
      const { answers, raw } = await send(server().port, [request, 'GET /files/next HTTP/1.1\r\nHost: x\r\n\r\n'], {
        answers: 2,
      })
      expect(
        answers.map((a) => a.status),
        raw,
      ).toEqual([200, 200])
      expect(JSON.parse(answers[0]!.body.toString())).toEqual({ a: 1 })
    },
    'uWS stalls the connection on a chunked body with a trailer',
  )

  probe(
    name,
    'a body 1 MiB over the limit → 413, then the next request is answered or the 413 closes the connection',
    async () => {
      const big = Buffer.alloc(BODY_LIMIT + 1024 * 1024, 'a')
      const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`
      const next = 'GET /files/after HTTP/1.1\r\nHost: x\r\n\r\n'
      const result = await send(server().port, [head, big, next], { answers: 2, quiet: 3000 })
      expect(result.silent, result.raw.slice(0, 300)).toBe(false)
      expect(result.answers[0]?.status).toBe(413)
      if (result.answers.length === 1) {
        expect(result.answers[0]!.headers.get('connection')).toMatch(/close/i)
        expect(result.closed).toBe(true)
      } else {
        expect(result.answers[1]!.status).toBe(200)
      }
    },
  )

  probe(
    name,
    'a body cut short (half its Content-Length, then the client leaves) troubles nothing: the next client is answered',
    async () => {
      const body = `{"a":"${'x'.repeat(200)}"}`
      const socket = await open(server().port)
      socket.write(
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 100)}`,
      )
      await new Promise((r) => setTimeout(r, 50))
      socket.destroy()
      await new Promise((r) => setTimeout(r, 50))
      const { answers, raw } = await send(
        server().port,
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      )
      expect(
        answers.map((a) => a.status),
        raw,
      ).toEqual([200])
      expect(JSON.parse(answers[0]!.body.toString())).toEqual(JSON.parse(body))
    },
  )

  probe(name, 'a returned Blob is sent with its Content-Length and type', async () => {
    const { answers, raw } = await send(server().port, 'GET /blob HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(
      answers.map((a) => a.status),
      raw,
    ).toEqual([200])
    expect(answers[0]!.headers.get('content-length')).toBe('10')
    expect(answers[0]!.headers.get('transfer-encoding')).toBeUndefined()
    expect(answers[0]!.headers.get('content-type')).toBe('text/plain')
    expect(answers[0]!.body.toString()).toBe('hello blob')
  })
})
