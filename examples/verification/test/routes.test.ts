/** Every path `routeless routes` lists is routed, sub-resources included, and their bad inputs answer in the v3 envelope. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listedRequests, routedTo } from '@routeless/example-kit/testing'
import { V3Client } from './helpers/client.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client
beforeAll(async () => {
  server = await startServer({ worker: false })
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
  await client.fetchToken()
})
afterAll(() => server.close())

describe('the route table', () => {
  it('lists each sub-resource as its own row', () => {
    const rows = server.service.app.table.list().map((r) => `${r.method} ${r.path}`)
    expect(rows).toEqual(
      expect.arrayContaining([
        'POST /v3/users/{userId}/report_fraud',
        'GET /v3/aml/monitoring/{jobId}/news/{reference}',
      ]),
    )
  })

  it('routes every listed row to its handler, and none answers the framework 404 or 405', async () => {
    const listed = listedRequests(server.service.app)
    expect(listed.length).toBeGreaterThan(25)
    for (const r of listed) {
      expect(routedTo(server.service.app, r.method, r.path), `${r.method} ${r.path}`).toBe(r.handler)
      const res = await fetch(server.url + r.path, { method: r.method, headers: { 'SmileID-Token': client.token! } })
      expect(await res.text(), `${r.method} ${r.path}`).not.toMatch(/No controller (answers|takes)|is not allowed on/)
    }
  })
})

describe('sub-resource bad input', () => {
  it('answers 404 in the v3 envelope for a sub-resource that does not exist', async () => {
    const res = await client.post('/v3/users/u1/report_nothing', { is_fraud: 'true' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: 'Not Found', message: expect.any(String) })
    const news = await client.get('/v3/aml/monitoring/job1/olds/ref_1')
    expect(news.status).toBe(404)
    expect(news.body.status).toBe('Not Found')
  })

  it("answers 405 with the sub-resource's own Allow for a method it lacks", async () => {
    const res = await client.get('/v3/users/u1/report_fraud')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.body).toEqual({ status: 'Method Not Allowed', message: expect.any(String) })
  })
})
