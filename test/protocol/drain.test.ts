/**
 * Draining on `close()` (what the CLI does on SIGTERM): stop accepting at once, let in-flight requests finish with
 * `Connection: close`, close idle keep-alive connections, and cut what is left when the drain timeout passes.
 */
import { connect } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunningServer } from 'routeless/node'
import { held, probe, probeApp, resetHeld, SERVERS, start } from './_servers.ts'
import { collect, open } from './_wire.ts'

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`

/** Whether a new connection to `port` is refused. */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

for (const name of SERVERS) {
  describe(`drain on close() [${name}]`, () => {
    let server: RunningServer
    beforeEach(async () => {
      resetHeld()
      server = await start(name, await probeApp(), { drainTimeout: 2000 })
    })
    afterEach(() => server.close())

    it('stops accepting at once, finishes in-flight requests with Connection: close, closes idle connections', async () => {
      // An idle keep-alive connection, after one answer.
      const idle = await open(server.port)
      idle.write(GET('/files/idle'))
      expect((await collect(idle, { answers: 1, keep: true })).answers[0]?.status).toBe(200)
      const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()))
      // A request in flight.
      const busy = await open(server.port)
      busy.write(GET('/held'))
      const busyResult = collect(busy, { quiet: 5000 })
      await held.entered.promise

      const started = Date.now()
      const closed = server.close()
      expect(await refusesConnections(server.port)).toBe(true)
      held.release.resolve()
      const { answers, closed: busyClosed } = await busyResult
      expect(answers.map((a) => a.body.toString())).toEqual(['"held"'])
      expect(answers[0]!.headers.get('connection')).toMatch(/close/i)
      expect(busyClosed).toBe(true)
      await closed
      await idleClosed
      expect(Date.now() - started).toBeLessThan(2000)
    })

    probe(
      name,
      'closes idle keep-alive connections while a request is still in flight',
      async () => {
        const idle = await open(server.port)
        idle.write(GET('/files/idle'))
        expect((await collect(idle, { answers: 1, keep: true })).answers[0]?.status).toBe(200)
        let idleClosed = false
        idle.once('close', () => void (idleClosed = true))
        const busy = await open(server.port)
        busy.write(GET('/held'))
        await held.entered.promise
        const closed = server.close()
        await new Promise((r) => setTimeout(r, 1000))
        expect(idleClosed).toBe(true)
        held.release.resolve()
        await closed
        busy.destroy()
      },
      'uWS cannot close one connection without closing all: idle connections close when the last in-flight answer is out',
    )

    it('answers the next request on a kept-alive connection with Connection: close', async () => {
      const kept = await open(server.port)
      kept.write(GET('/files/first'))
      expect((await collect(kept, { answers: 1, keep: true })).answers[0]?.status).toBe(200)
      const busy = await open(server.port)
      busy.write(GET('/held'))
      await held.entered.promise
      const closed = server.close()
      kept.write(GET('/files/second'))
      const next = await collect(kept, { quiet: 3000 })
      // Within the grace period the request is answered and the connection closed after it; the server may also have
      // closed the idle connection first — never a reset after a request it accepted, never silence.
      expect(next.silent).toBe(false)
      expect(next.closed).toBe(true)
      if (next.answers.length > 0) {
        expect(next.answers[0]!.status).toBe(200)
        expect(next.answers[0]!.headers.get('connection')).toMatch(/close/i)
      }
      held.release.resolve()
      busy.destroy()
      await closed
    })

    it('cuts a request that outlives the drain timeout, and resolves then', async () => {
      const busy = await open(server.port)
      busy.write(GET('/held'))
      const result = collect(busy, { quiet: 5000 })
      await held.entered.promise
      const started = Date.now()
      await server.close()
      const elapsed = Date.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(1900)
      expect(elapsed).toBeLessThan(3500)
      expect((await result).closed).toBe(true)
      held.release.resolve()
    })
  })
}

for (const name of SERVERS) {
  describe(`drain under load [${name}]`, () => {
    it('stops with no request lost: every request sent on an open connection is answered, the last with Connection: close', async () => {
      const server = await start(name, await probeApp(), { drainTimeout: 3000 })
      let answered = 0
      let lost = 0
      let endedCleanly = 0
      const client = async () => {
        const socket = await open(server.port)
        for (;;) {
          socket.write(GET('/fast/1'))
          const { answers, closed } = await collect(socket, { answers: 1, keep: true, quiet: 4000 })
          if (answers.length === 0) {
            lost++
            break
          }
          answered++
          if (/close/i.test(answers[0]!.headers.get('connection') ?? '')) {
            if (!closed) await new Promise((r) => (socket.destroyed ? r(undefined) : socket.once('close', r)))
            endedCleanly++
            break
          }
        }
        socket.destroy()
      }
      const clients = Array.from({ length: 20 }, client)
      await new Promise((r) => setTimeout(r, 300))
      expect(answered).toBeGreaterThan(20)
      await server.close()
      await Promise.all(clients)
      expect({ lost, endedCleanly }).toEqual({ lost: 0, endedCleanly: 20 })
    })
  })
}
