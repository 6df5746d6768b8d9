/** Every path `routeless routes` lists answers: each row, requested signed in, is routed to its handler. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listedRequests, routedTo } from '@routeless/example-kit/testing'
import { createConfigurationsApp } from '../src/app.ts'
import { SQLITE, startApi, type RunningApi } from './harness.ts'

let api: RunningApi
beforeAll(async () => {
  api = await startApi(SQLITE)
})
afterAll(() => api.close())

describe('the route table', () => {
  it('routes every listed row to its handler, and none answers the framework 404 or 405', async () => {
    const app = await createConfigurationsApp(api.services)
    const listed = listedRequests(app)
    expect(listed.length).toBeGreaterThanOrEqual(6)
    const client = await api.signedIn()
    for (const r of listed) {
      expect(routedTo(app, r.method, r.path), `${r.method} ${r.path}`).toBe(r.handler)
      const reply = await client.send(r.method, r.path)
      expect(reply.text, `${r.method} ${r.path}`).not.toMatch(/No controller answers|is not allowed on/)
    }
  })
})
