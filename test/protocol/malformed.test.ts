/** Malformed requests: refused with 400 or 431, or the connection closed — never silence, never a hang. */
import { expect } from 'vitest'
import { describeServers, probe } from './_servers.ts'
import { send, type WireResult } from './_wire.ts'

function refused(result: WireResult, statuses = [400]): void {
  expect(result.silent, `no answer and the connection left open: ${result.raw}`).toBe(false)
  expect(result.answers.length, result.raw).toBe(1)
  expect(statuses).toContain(result.answers[0]!.status)
  expect(result.closed).toBe(true)
}

const SILENT =
  'uWS rejects these in its own parser, before routeless sees them: it closes or holds the connection without an answer'

describeServers('malformed requests', (server, name) => {
  probe(
    name,
    'bare LF line endings → 400',
    async () => {
      refused(await send(server().port, 'GET /files/x HTTP/1.1\nHost: x\n\n'))
    },
    SILENT,
  )

  probe(
    name,
    'NUL in a header value → 400',
    async () => {
      refused(await send(server().port, 'GET /files/x HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n'))
    },
    SILENT,
  )

  probe(
    name,
    'obs-fold (a header line continued on the next) → 400',
    async () => {
      refused(await send(server().port, 'GET /files/x HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  b\r\n\r\n'))
    },
    SILENT,
  )

  probe(
    name,
    'HTTP/1.1 without Host → 400',
    async () => {
      refused(await send(server().port, 'GET /files/x HTTP/1.1\r\n\r\n'))
    },
    SILENT,
  )

  probe(
    name,
    'more than 100 header fields → 431 (or 400)',
    async () => {
      const many = Array.from({ length: 120 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')
      refused(await send(server().port, `GET /files/x HTTP/1.1\r\nHost: x\r\n${many}\r\n`), [400, 431])
    },
    SILENT,
  )

  probe(
    name,
    'the HTTP/2 connection preface → 400 (or 505)',
    async () => {
      refused(await send(server().port, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), [400, 505])
    },
    SILENT,
  )
})
