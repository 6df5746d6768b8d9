import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

const basic = (user: string, pass: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
})

describeTargets('Auth guards', fixtureApp('features'), (t) => {
  it('leaves unguarded paths open', async () => {
    expect(await (await t().request('/')).json()).toBe('public')
  })
  it('answers 401 with a Bearer challenge when a module tree needs a token', async () => {
    for (const path of ['/private', '/private/deeper']) {
      const res = await t().request(path)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="private"')
    }
  })
  it('answers 401 with error="invalid_token" for a wrong token', async () => {
    const res = await t().request('/private', { headers: { authorization: 'Bearer nope' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="private", error="invalid_token"')
  })
  it('admits a good token, guards the whole tree, and exposes the principal', async () => {
    expect(await (await t().request('/private', { headers: { authorization: 'Bearer good-token' } })).json()).toEqual({
      user: 'good',
    })
    expect(
      await (await t().request('/private/deeper', { headers: { authorization: 'bearer good-token' } })).json(),
    ).toBe('deeper, still guarded')
  })
  it('answers 403 when the token is valid but not enough', async () => {
    const res = await t().request('/private', { method: 'DELETE', headers: { authorization: 'Bearer reader-token' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('www-authenticate')).toBeNull()
    expect(
      (await t().request('/private', { method: 'DELETE', headers: { authorization: 'Bearer good-token' } })).status,
    ).toBe(204)
  })
  it('runs guards before the body is read: no 400, 413 or 415 for an unauthenticated client', async () => {
    const bad = { method: 'POST', body: '{"not json', headers: { 'content-type': 'application/json' } }
    expect((await t().request('/private', bad)).status).toBe(401)
    expect(
      (await t().request('/private', { method: 'POST', body: 'x', headers: { 'content-type': 'application/xml' } }))
        .status,
    ).toBe(401)
    expect(
      (await t().request('/private', { ...bad, headers: { ...bad.headers, authorization: 'Bearer good-token' } }))
        .status,
    ).toBe(400)
    const ok = await t().request('/private', {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer good-token' },
    })
    expect(await ok.json()).toEqual({ a: 1 })
  })
  it("applies a module's per-method auth object to that method only, in its whole tree", async () => {
    const denied = await t().request('/sub')
    expect(denied.status).toBe(403)
    expect((await denied.json()).message).toBe('Sub GET guarded')
    expect((await t().request('/sub', { headers: { 'x-sub': 'yes' } })).status).toBe(200)
    expect(await (await t().request('/sub', { method: 'POST' })).json()).toBe('sub POST open')
  })
  it('reads a key from a header of its own and fails with 403 and no challenge when asked to', async () => {
    const missing = await t().request('/keyed')
    expect(missing.status).toBe(403)
    expect(missing.headers.get('www-authenticate')).toBeNull()
    expect((await missing.json()).message).toBe('No key')
    expect((await (await t().request('/keyed', { headers: { 'x-api-key': 'nope' } })).json()).message).toBe(
      'Unknown key',
    )
    expect(await (await t().request('/keyed', { headers: { 'x-api-key': 'k1' } })).json()).toEqual({ key: 'k1' })
  })
  it('sets the principal from a check that returns who passed', async () => {
    expect((await t().request('/keyed/who')).status).toBe(403)
    expect(await (await t().request('/keyed/who?user=ann')).json()).toEqual({ user: 'ann' })
  })
  it('checks Basic credentials (a colon in the password included)', async () => {
    expect((await t().request('/basic')).headers.get('www-authenticate')).toBe('Basic realm="basic-test"')
    expect((await t().request('/basic', { headers: basic('alice', 'wrong') })).status).toBe(401)
    expect((await t().request('/basic', { headers: { authorization: 'Basic !!!' } })).status).toBe(401)
    expect(await (await t().request('/basic', { headers: basic('alice', 'pa:ss') })).json()).toEqual({ name: 'alice' })
  })
  it('applies a guard to one method only', async () => {
    expect((await t().request('/mixed')).status).toBe(200)
    const denied = await t().request('/mixed', { method: 'POST' })
    expect(denied.status).toBe(403)
    expect((await denied.json()).message).toBe('Admins only')
    expect((await t().request('/mixed', { method: 'POST', headers: { 'x-admin': 'yes' } })).status).toBe(200)
  })
})

describeTargets('Rate limits', fixtureApp('features'), (t) => {
  it('answers 429 with Retry-After once a key passes its limit, counting keys apart', async () => {
    const client = `c-${Math.random()}`
    const first = await t().request('/limited', { headers: { 'x-client': client } })
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect((await t().request('/limited', { headers: { 'x-client': client } })).status).toBe(200)
    const third = await t().request('/limited', { headers: { 'x-client': client } })
    expect(third.status).toBe(429)
    const retry = Number(third.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(60)
    expect((await third.json()).message).toBe('Too many requests')
    expect((await t().request('/limited', { headers: { 'x-client': `${client}-other` } })).status).toBe(200)
  })
})
