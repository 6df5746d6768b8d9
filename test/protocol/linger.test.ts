/**
 * A body over the limit, sent the way requests or httpx send it: the whole body is written before the answer is
 * read. The server answers 413 at once, then reads and drops what the client still sends (within a bound) before it
 * closes, so the client's writes succeed and it reads the 413 instead of meeting a broken pipe or a reset.
 */
import type { Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from 'routeless/node'
import { BODY_LIMIT, probeApp, SERVERS, start } from './_servers.ts'
import { collect, open } from './_wire.ts'

/** Writes every chunk, resolving once all are handed to the kernel; rejects with the write error (EPIPE, ECONNRESET). */
function writeAll(socket: Socket, chunks: (string | Buffer)[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false
    const fail = (error: Error) => {
      if (failed) return
      failed = true
      reject(error)
    }
    socket.on('error', fail)
    chunks.forEach((chunk, i) =>
      socket.write(chunk, (error) => {
        if (error) fail(error)
        else if (i === chunks.length - 1 && !failed) {
          socket.off('error', fail)
          resolve()
        }
      }),
    )
  })
}

const MiB = 1024 * 1024

for (const name of SERVERS) {
  describe(`lingering close after an early answer [${name}]`, () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await start(name, await probeApp(), { linger: { time: 8000, bytes: 16 * MiB } })
    })
    afterAll(() => server.close())

    it('a client that writes an 11 MB body before reading gets the 413 (no broken pipe)', async () => {
      const body = Buffer.alloc(11 * MiB, 'a')
      const socket = await open(server.port)
      const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
      // Written in pieces as a client's sendall does; the answer is read only after the last byte went out.
      const pieces = [head]
      for (let at = 0; at < body.length; at += 64 * 1024) pieces.push(body.subarray(at, at + 64 * 1024) as never)
      await writeAll(socket, pieces)
      const { answers, raw } = await collect(socket, { answers: 1, quiet: 5000 })
      expect(
        answers.map((a) => a.status),
        raw.slice(0, 300),
      ).toEqual([413])
      expect(JSON.parse(answers[0]!.body.toString()).message).toContain(`${BODY_LIMIT} bytes`)
    })

    it('the same with a chunked body', async () => {
      const socket = await open(server.port)
      const chunk = Buffer.alloc(64 * 1024, 'b')
      const pieces: (string | Buffer)[] = [
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      ]
      for (let i = 0; i < 80; i++) pieces.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n')
      pieces.push('0\r\n\r\n')
      await writeAll(socket, pieces)
      const { answers, raw } = await collect(socket, { answers: 1, quiet: 5000 })
      expect(
        answers.map((a) => a.status),
        raw.slice(0, 300),
      ).toEqual([413])
    })
  })

  describe(`lingering close is bounded [${name}]`, () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await start(name, await probeApp(), { linger: { time: 60_000, bytes: 2 * MiB } })
    })
    afterAll(() => server.close())

    it('a client that never stops sending is cut off once it has sent the bound', async () => {
      const socket = await open(server.port)
      socket.on('error', () => {})
      socket.write(
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      )
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      const chunk = Buffer.from(`${(64 * 1024).toString(16)}\r\n${'c'.repeat(64 * 1024)}\r\n`)
      let sent = 0
      let open_ = true
      void closed.then(() => void (open_ = false))
      // Keep sending (far past the bound) until the server closes the connection.
      while (open_ && sent < 200 * MiB) {
        const ok = socket.write(chunk)
        sent += chunk.length
        if (!ok) await new Promise((r) => socket.once('drain', r).once('close', r))
      }
      await closed
      expect(sent).toBeLessThan(200 * MiB)
    })
  })

  describe(`lingering close is bounded in time [${name}]`, () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await start(name, await probeApp(), { linger: { time: 300, bytes: 16 * MiB } })
    })
    afterAll(() => server.close())

    it('a client that trickles its body forever is cut off once the time is up', async () => {
      const socket = await open(server.port)
      socket.on('error', () => {})
      socket.write(
        `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n${'d'.repeat(2048)}\r\n`,
      )
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      const trickle = setInterval(() => socket.write('1\r\ne\r\n'), 20)
      await closed
      clearInterval(trickle)
    })
  })
}
