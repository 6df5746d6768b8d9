/**
 * A handler returning an async generator that yields bytes: the bytes are sent as they are (never serialised as JSON
 * objects such as `{"0":120}`), as application/octet-stream — on Fetch (`app.fetch`), node:http and uWebSockets.js.
 */
import { describe, expect, it } from 'vitest'
import { describeServers, probe, probeApp } from './_servers.ts'
import { send } from './_wire.ts'

const EXPECTED = Buffer.from([120, 121, 122, 0, 255])

describe('bytes from a generator [fetch]', () => {
  it('are sent raw, as application/octet-stream', async () => {
    const app = await probeApp()
    const response = await app.fetch(new Request('http://x/bytes'))
    expect(response.status).toBe(200)
    expect(Buffer.from(await response.arrayBuffer())).toEqual(EXPECTED)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
  })

  it('a generator that mixes bytes and other values fails instead of sending JSON objects', async () => {
    const app = await probeApp()
    const response = await app.fetch(new Request('http://x/bytes/mixed'))
    await expect(response.arrayBuffer()).rejects.toThrow()
  })
})

describeServers('bytes from a generator', (server, name) => {
  probe(name, 'are sent raw, as application/octet-stream', async () => {
    const { answers, raw } = await send(server().port, 'GET /bytes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(
      answers.map((a) => a.status),
      raw,
    ).toEqual([200])
    expect(answers[0]!.body).toEqual(EXPECTED)
    expect(answers[0]!.headers.get('content-type')).toBe('application/octet-stream')
  })

  probe(name, 'a generator that mixes bytes and other values is cut, never sent as JSON objects', async () => {
    const { answers, raw } = await send(
      server().port,
      'GET /bytes/mixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    )
    expect(raw).not.toContain('{"0":')
    expect(raw).not.toContain('not')
    // The head and the first chunk went out before the failure: the answer is cut (no final chunk).
    expect(answers).toEqual([])
  })
})
