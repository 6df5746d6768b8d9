/** The access log rides on the core's own path: logging every request builds no Fetch Request on uWS. */
import { request as httpRequest } from 'node:http'
import { expect, it } from 'vitest'
import { createApp, createLogger } from 'routeless'
import { serve } from 'routeless/uws'
import { countRequestsBuilt } from '../_fetch-objects.ts'

function get(url: string): Promise<{ status: number; id: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () =>
        resolve({ status: res.statusCode!, id: res.headers['x-request-id'] as string | undefined, body }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

it('logs each request on uWS without building a Fetch Request', async () => {
  const lines: string[] = []
  const app = await createApp(
    {
      modules: {
        '': {
          Plain: class {
            GET() {
              return 'plain'
            }
          },
        },
      },
    },
    { accessLog: true, logger: createLogger({ level: 'info', write: (l) => lines.push(l) }) },
  )
  const server = await serve(app, { host: '127.0.0.1', port: 0 })
  try {
    await countRequestsBuilt(async (built) => {
      const ok = await get(`${server.url}/plain?x=1`)
      const missing = await get(`${server.url}/nowhere`)
      expect(ok).toMatchObject({ status: 200, body: '"plain"' })
      expect(ok.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(missing.status).toBe(404)
      expect(built()).toBe(0)
    })
  } finally {
    await server.close()
  }
  expect(lines.map((l) => JSON.parse(l)).map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
    'GET /plain 200',
    'GET /nowhere 404',
  ])
})
