/**
 * Serving on Bun's own server: `Bun.serve` with the app's Fetch handler, what the CLI runs when it runs on Bun
 * (about twice the requests per CPU second of routeless's node:http server through Bun's node compatibility:
 * docs/BENCHMARKS.md). Bun parses and frames the requests; routeless sees each as a Fetch `Request`.
 * @module
 */
import { HttpError } from '../../base/errors.ts'
import { fromRequest } from '../../lifecycle/request.ts'
import { errorResponse, toFetchResponse } from '../../lifecycle/fetch-response.ts'
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import {
  addressInUse,
  DRAIN_TIMEOUT,
  running,
  Shutdown,
  type RunningServer,
  type Servable,
  type ServeOptions,
} from '../shared/serving.ts'
import { bunRuntime, type BunServer } from './bun-types.ts'
import { upgrade, wantsUpgrade, websocketHandlers, type SocketData } from './websocket.ts'

export interface BunServeOptions extends Pick<ServeOptions, 'host' | 'port' | 'drainTimeout' | 'drainDelay'> {
  /** Several processes on one port (SO_REUSEPORT: the kernel spreads the connections). */
  reusePort?: boolean
}

/** Serves `app` on `Bun.serve`; rejects outside Bun, and with a clear error when the port is taken. */
export async function serve(app: Servable, options: BunServeOptions = {}): Promise<RunningServer> {
  const bun = bunRuntime()
  if (!bun) throw new Error('The Bun server needs Bun (run the CLI with bun, or use --server=node)')
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 8000
  const upgrading =
    typeof (app as Partial<UpgradingApp>).upgrade === 'function' ? (app as unknown as UpgradingApp) : undefined
  let server: BunServer
  let closed: Promise<void> | undefined
  const shutdown = new Shutdown(
    options.drainDelay ?? 0,
    () => (closed ??= drain(server, options.drainTimeout ?? DRAIN_TIMEOUT)),
  )
  // Each request's `env`: only what a guard or a log asks for is computed (the client's address). A class, whose
  // getters are made once, where an object literal made two closures a request (~0.9k instructions on Bun).
  class Env {
    [key: string]: unknown
    declare readonly request: Request
    declare readonly server: BunServer
    constructor(request: Request, server: BunServer) {
      this.request = request
      this.server = server
    }
    get remoteAddress(): string | undefined {
      return this.server.requestIP(this.request)?.address
    }
    get draining(): boolean {
      return shutdown.draining
    }
  }
  try {
    server = bun.serve<SocketData>({
      hostname: host,
      port,
      reusePort: options.reusePort,
      fetch(request, server) {
        const env = new Env(request, server)
        // (Reading a header makes Bun build the request's `Headers`: ~2.5k instructions a GET that needs none.)
        if (upgrading !== undefined && upgrading.takesSockets !== false && wantsUpgrade(request))
          return upgrade(upgrading, request, server, env)
        return app.handle ? respond(app as Required<Servable>, request, env) : app.fetch(request, env)
      },
      // app.fetch never rejects; this answers what Bun itself fails on.
      error: (error) => errorResponse(new HttpError(500, 'The server could not answer this request', { cause: error })),
      websocket: upgrading ? websocketHandlers(upgrading) : undefined,
    })
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'EADDRINUSE') throw addressInUse(host, port)
    throw error
  }
  return running(host, server.port, shutdown)
}

/** Stops listening now, lets what is in flight finish, and cuts what is left at `timeout`. */
async function drain(server: BunServer, timeout: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const cut = new Promise<void>((resolve) => {
    timer = setTimeout(() => resolve(server.stop(true)), timeout)
  })
  await Promise.race([server.stop(false), cut])
  clearTimeout(timer)
}

/**
 * The app's answer as Bun takes it: the `Response` itself when nothing had to wait (a synchronous handler, no body to
 * read), which Bun writes at once, else a promise of it (as `app.fetch` answers, without its check for upgrades).
 */
function respond(
  app: Required<Servable>,
  request: Request,
  env: Record<string, unknown>,
): Response | Promise<Response> {
  const answer = app.handle(fromRequest(request), env)
  return answer instanceof Promise ? answer.then(toFetchResponse) : toFetchResponse(answer)
}
