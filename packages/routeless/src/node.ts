/**
 * Serving on node:http through @whatwg-node/server. No HTTP semantics live here: only listening and draining.
 * @module
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server'
import type { Application } from './application.ts'
import { attachWebSockets, type UpgradingApp } from './_node-websocket.ts'
import { fromRequest } from './request.ts'
import { toFetchResponse, type Answer } from './response.ts'

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
export async function serve(app: Pick<Application, 'fetch'> & Partial<Pick<Application, 'handle'>>, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const adapter = createServerAdapter((request: Request, ctx: Record<string, unknown>) => {
    ctx.remoteAddress = (ctx.req as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress
    if (app.handle === undefined) return app.fetch(request, ctx)
    // The body straight from node:http's stream: @whatwg-node's ReadableStream over it costs more than the parse.
    const body = request.method === 'GET' || request.method === 'HEAD' || !ctx.req ? undefined : chunksOf(ctx.req as IncomingMessage)
    const answer = app.handle(fromRequest(request, body), ctx)
    return answer instanceof Promise ? answer.then(toAdapterResponse) : toAdapterResponse(answer)
  })
  const server = createServer(adapter)
  // WebSockets: upgrades are decided by the app's WEBSOCKET handlers (only for apps that can upgrade).
  const sockets = typeof (app as Partial<UpgradingApp>).upgrade === 'function' ? attachWebSockets(server, app as unknown as UpgradingApp) : undefined
  server.keepAliveTimeout = 5000
  await listen(server, host, options.port ?? 8000)
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      sockets?.close()
      return drain(server, options.drainTimeout ?? 10_000)
    },
  }
}

/**
 * An IncomingMessage's chunks as an async iterable, lighter than its own iterator: listens only once read from, and
 * a reader that stops early (413) leaves the rest to be dropped.
 */
function chunksOf(message: IncomingMessage): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const chunks: Uint8Array[] = []
      let done = false
      let failure: Error | undefined
      let waiting: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: Error) => void } | undefined
      const settle = () => {
        const w = waiting
        if (w === undefined) return
        waiting = undefined
        if (failure) w.reject(failure)
        else if (chunks.length > 0) w.resolve({ done: false, value: chunks.shift()! })
        else if (done) w.resolve({ done: true, value: undefined })
        else waiting = w
      }
      const onData = (chunk: Uint8Array) => void (chunks.push(chunk), settle())
      const onEnd = () => void ((done = true), settle())
      const onError = (error: Error) => void ((failure = error), settle())
      const onClose = () => void (!message.complete && onError(new Error('The client closed the connection')))
      message.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose)
      return {
        next: () => new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
          waiting = { resolve, reject }
          settle()
        }),
        return: () => {
          message.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
          message.resume() // node:http drops what is left
          return Promise.resolve({ done: true, value: undefined })
        },
      }
    },
  }
}

/**
 * The core's answer as a Response of @whatwg-node's own class when the body is already in memory: the adapter writes
 * those in one call, where it streams a native Response chunk by chunk (about three times the CPU per request).
 */
function toAdapterResponse(answer: Answer): Response {
  if (answer instanceof Response || !(answer.body === null || typeof answer.body === 'string' || answer.body instanceof Uint8Array)) {
    return toFetchResponse(answer)
  }
  let headers: HeadersInit
  if (answer.headers instanceof Headers) {
    headers = answer.headers
    if (answer.type !== undefined && !headers.has('content-type')) headers.set('content-type', answer.type)
  } else {
    const init: Record<string, string> = {}
    if (answer.type !== undefined) init['content-type'] = answer.type
    for (const [name, value] of answer.headers ?? []) init[name] = value
    headers = init
  }
  return new AdapterResponse(answer.body as BodyInit | null, { status: answer.status, statusText: answer.statusText, headers }) as Response
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
