/**
 * Request smuggling: a request whose length two parsers could read differently is refused with 400 and the
 * connection closed, and the request hidden in its body is never answered.
 */
import { expect } from 'vitest'
import { describeServers, probe, type ServerName } from './_servers.ts'
import { send, type WireResult } from './_wire.ts'

const HIDDEN = 'GET /files/hidden HTTP/1.1\r\nHost: x\r\n\r\n'

/**
 * 400 and closed, the hidden request never answered. On uWS a request pipelined behind the refused one makes uWS
 * close the connection before the 400 can be written (see `refuseFraming` in uws.ts), and uWS itself closes
 * without an answer on CL.TE and a non-numeric Content-Length: there, closed with no answer at all is accepted.
 */
function refusedAndClosed(result: WireResult, name: ServerName): void {
  expect(result.silent, result.raw).toBe(false)
  expect(result.closed).toBe(true)
  expect(result.raw).not.toContain('hidden')
  const statuses = result.answers.map((a) => a.status)
  if (name === 'uws' && statuses.length === 0) return
  expect(statuses, result.raw).toEqual([400])
}

describeServers('request smuggling', (server, name) => {
  probe(name, 'two conflicting Content-Length headers, nothing behind → 400 and closed', async () => {
    const result = await send(
      server().port,
      `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n`,
    )
    expect(
      result.answers.map((a) => a.status),
      result.raw,
    ).toEqual([400])
    expect(result.closed).toBe(true)
  })

  probe(name, 'two conflicting Content-Length headers → 400, closed, the hidden request unanswered', async () => {
    const body = HIDDEN
    refusedAndClosed(
      await send(
        server().port,
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 0\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
      name,
    )
  })

  probe(name, 'Transfer-Encoding: chunked, identity → 400, closed, the hidden request unanswered', async () => {
    refusedAndClosed(
      await send(
        server().port,
        `POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n${HIDDEN}`,
      ),
      name,
    )
  })

  probe(
    name,
    'CL.TE (Content-Length then Transfer-Encoding: chunked) → 400, closed, the hidden request unanswered',
    async () => {
      const body = `0\r\n\r\n${HIDDEN}`
      refusedAndClosed(
        await send(
          server().port,
          `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
        ),
        name,
      )
    },
  )

  probe(
    name,
    'TE.CL (Transfer-Encoding: chunked then Content-Length) → 400, closed, the hidden request unanswered',
    async () => {
      const chunk = `${HIDDEN}`
      const body = `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`
      refusedAndClosed(
        await send(
          server().port,
          `POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${body}`,
        ),
        name,
      )
    },
  )

  probe(name, 'a Content-Length that is not a number → 400, closed', async () => {
    refusedAndClosed(
      await send(server().port, `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1e2\r\n\r\n${HIDDEN}`),
      name,
    )
  })
})
