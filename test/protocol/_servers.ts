/**
 * The protocol suite runs every probe against both servers routeless ships: routeless/node (node:http, the CLI's
 * default) and routeless/uws (uWebSockets.js). A probe uWebSockets.js cannot pass is declared with `uwsFails` and a
 * reason: it then runs as `it.fails` on uWS (so it starts failing the suite the day uWS passes it) and as a plain
 * test on node.
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { createApp, type AppOptions, type Application } from 'routeless'
import { serve, type RunningServer, type ServeOptions } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'

export type ServerName = 'node' | 'uws'
export const SERVERS: ServerName[] = ['node', 'uws']

/** Resolvable from outside: lets a test and a controller meet without timers. */
export function signal<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** What a test holds open in a controller (`GET /held`): entered when it starts, answered when released. */
export const held = { entered: signal(), release: signal() }
export function resetHeld(): void {
  held.entered = signal()
  held.release = signal()
}

export const BODY_LIMIT = 1024

/** A small app with the shapes the probes need; every error goes through an app-wide renderer (as in the issue). */
export function probeApp(options: AppOptions = {}): Promise<Application> {
  return createApp(
    {
      modules: {
        '': {
          Default: class {
            GET(...parts: string[]) {
              return ['root', ...parts]
            }
          },
          Files: class {
            GET(...parts: string[]) {
              return ['files', ...parts]
            }
          },
          Slow: class {
            async GET(n = '0') {
              await new Promise((r) => setTimeout(r, 40 - Number(n) * 10))
              return `slow ${n}`
            }
          },
          Fast: class {
            GET(n = '0') {
              return `fast ${n}`
            }
          },
          Echo: class {
            static bodyLimit = BODY_LIMIT
            declare body: unknown
            POST() {
              return this.body ?? 'empty'
            }
          },
          Blob: class {
            GET() {
              return new Blob(['hello blob'], { type: 'text/plain' })
            }
          },
          Bytes: class {
            async *GET(kind = 'plain') {
              yield new Uint8Array([120])
              if (kind === 'mixed') yield { not: 'bytes' }
              yield Buffer.from('yz')
              yield new Uint8Array([0, 255]).buffer
            }
          },
          Chat: class {
            WEBSOCKET() {
              return { message: (socket: { send(m: string): void }, m: string) => socket.send(m) }
            }
          },
          Held: class {
            async GET() {
              held.entered.resolve()
              await held.release.promise
              return 'held'
            }
          },
        },
      },
    },
    {
      logger: { error: () => {} },
      renderError: (error) =>
        Response.json(
          { rendered: error.status, message: error.message },
          { status: error.status, headers: error.headers },
        ),
      ...options,
    },
  )
}

export function start(name: ServerName, app: Application, options: ServeOptions = {}): Promise<RunningServer> {
  return (name === 'uws' ? serveUws : serve)(app, { host: '127.0.0.1', port: 0, ...options })
}

/** `describe` once per server, with a server for `probeApp()` started before and closed after. */
export function describeServers(title: string, fn: (server: () => RunningServer, name: ServerName) => void): void {
  for (const name of SERVERS) {
    describe(`${title} [${name}]`, () => {
      let running: RunningServer
      beforeAll(async () => {
        running = await start(name, await probeApp())
      })
      afterAll(() => running.close())
      fn(() => running, name)
    })
  }
}

/** A probe: a plain test, or `it.fails` on uWS when uWebSockets.js 20.30 cannot pass it (the reason is in the title). */
export function probe(name: ServerName, title: string, fn: () => Promise<void>, uwsFails?: string): void {
  if (name === 'uws' && uwsFails !== undefined) it.fails(`${title} — known uWS limit: ${uwsFails}`, fn)
  else it(title, fn)
}
