/**
 * Serving on node:http through @whatwg-node/server. No HTTP semantics live here: only listening and draining.
 * @module
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServerAdapter } from '@whatwg-node/server'
import type { Application } from './application.ts'

export interface ServeOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string
  /** Port (default 8000; 0 picks a free one). */
  port?: number
  /** How long `close()` waits for in-flight requests before cutting connections, in ms (default 10 000). */
  drainTimeout?: number
}

export interface RunningServer {
  /** `http://host:port` */
  url: string
  port: number
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>
}

/** Serves `app` on node:http. Rejects with a clear error when the port is taken. */
export async function serve(app: Pick<Application, 'fetch'>, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const adapter = createServerAdapter((request: Request, ctx: Record<string, unknown>) => {
    ctx.remoteAddress = (ctx.req as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress
    return app.fetch(request, ctx)
  })
  const server = createServer(adapter)
  server.keepAliveTimeout = 5000
  await listen(server, host, options.port ?? 8000)
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => drain(server, options.drainTimeout ?? 10_000),
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      reject(error.code === 'EADDRINUSE' ? Object.assign(new Error(`Port ${port} on ${host} is already in use`), { code: 'EADDRINUSE' }) : error)
    }
    const onListening = () => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

function drain(server: Server, timeout: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeout)
    timer.unref()
    server.close(() => {
      clearTimeout(timer)
      resolve()
    })
    server.closeIdleConnections()
  })
}
