/**
 * deepl-mock's proxy (TEST_MODE=deepl-mock with MOCK_PROXY_PORT): a plain HTTP forward proxy that passes requests on
 * to this server only, adding `Forwarded: for=<client>` — what `mock-server-session-expect-proxy` checks for, so
 * that a client's proxy configuration can be tested. An absolute-form target for another host, or a relative
 * one, is refused with 403 (this is not an open proxy); CONNECT (HTTPS tunnels) is answered 405.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface MockProxy {
  url: string
  port: number
  close(): Promise<void>
}

export async function startMockProxy(options: { host: string; port: number; target: string }): Promise<MockProxy> {
  const target = new URL(options.target)
  const server = createServer((req, res) => forward(req, res, target))
  server.on('connect', (_req, socket) =>
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message }))
}

function forward(req: IncomingMessage, res: ServerResponse, target: URL): void {
  let url: URL
  try {
    url = new URL(req.url ?? '')
  } catch {
    return refuse(res, 403, 'This proxy forwards absolute-form requests (http://host:port/path) to the API only.')
  }
  const samePort = (url.port || '80') === (target.port || '80')
  const localHost = ['localhost', '127.0.0.1', '[::1]', target.hostname].includes(url.hostname)
  if (url.protocol !== 'http:' || !samePort || !localHost)
    return refuse(res, 403, `This proxy forwards to ${target.origin} only.`)
  const headers: Record<string, string | string[] | undefined> = {
    ...req.headers,
    forwarded: `for=${forwardedFor(req.socket.remoteAddress)}`,
    host: target.host,
  }
  delete headers['proxy-connection']
  delete headers['proxy-authorization']
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on('error', () => (res.headersSent ? res.destroy() : refuse(res, 502, 'The API did not answer the proxy.')))
  res.on('close', () => upstream.destroy())
  req.pipe(upstream)
}

/** RFC 7239: an IPv6 address is quoted and bracketed. */
function forwardedFor(address: string | undefined): string {
  if (!address) return 'unknown'
  return address.includes(':') ? `"[${address}]"` : address
}
