/** The app's `auth` option: guards for the whole tree (also `auth` in routeless.config.ts). */
import { describe, expect, it } from 'vitest'
import { fixtureApp } from '../_apps.ts'

describe("the app's auth option", () => {
  it("guards every handler of the tree, before the modules' own guards", async () => {
    const { bearerAuth } = await import('routeless')
    const app = await fixtureApp('basic', { auth: bearerAuth({ verify: (token) => token === 'k' && { id: 1 } }) })()
    expect((await app.request('/foo')).status).toBe(401)
    expect((await app.request('/foo', { headers: { authorization: 'Bearer k' } })).status).toBe(200)
    expect(
      (
        await app.request('/', {
          method: 'POST',
          body: 'name=x',
          headers: { authorization: 'Bearer k', 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(200)
  })

  it('refuses a per-method spec naming no handler method', async () => {
    await expect(fixtureApp('basic', { auth: { GETT: () => {} } })()).rejects.toThrow(/app's auth option names GETT/)
  })
})
