/** A real local HTTP receiver for callbacks; it can be told to fail its first N requests with 500. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: Record<string, string | string[] | undefined>
  body: string
  at: number
}

export async function startReceiver(options: { failFirst?: number } = {}) {
  const received: Received[] = []
  let failuresLeft = options.failFirst ?? 0
  let requests = 0
  const waiters: Array<() => void> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      requests++
      if (failuresLeft > 0) {
        failuresLeft--
        res.writeHead(500).end('try again')
        return
      }
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      res.writeHead(200).end('ok')
      waiters.splice(0).forEach((w) => w())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    received,
    get requests() {
      return requests
    },
    /** Resolves once `count` callbacks were received (2xx answered). */
    async waitFor(count: number, timeoutMs = 5000): Promise<Received[]> {
      const end = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > end) throw new Error(`receiver got ${received.length} of ${count} callbacks`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 50)
        })
      }
      return received
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
