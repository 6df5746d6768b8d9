/** A fake network engine on loopback: records each request and answers with the given handler. */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Recorded {
  path: string
  headers: IncomingHttpHeaders
  body: any
}

export interface FakeServer {
  url: string
  requests: Recorded[]
  close(): Promise<void>
}

/** `handler` returns [status, body]; `'hang'` never answers. */
export async function fakeServer(handler: (request: Recorded) => [number, unknown] | 'hang'): Promise<FakeServer> {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const recorded = { path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined }
      requests.push(recorded)
      const answer = handler(recorded)
      if (answer === 'hang') return
      res.writeHead(answer[0], { 'Content-Type': 'application/json' })
      res.end(typeof answer[1] === 'string' ? answer[1] : JSON.stringify(answer[1]))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
