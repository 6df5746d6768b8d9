import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../src/auth/jwt.ts'
import { deriveKey } from '../src/auth/sealed-secret.ts'
import { V3Client } from './helpers/client.ts'
import { ekyc } from './helpers/fixtures.ts'
import { encodeMultipart, partsOf } from './helpers/multipart.ts'
import { API_KEY, PARTNER_ID, SERVER_SECRET, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

function tokenCall(headers: Record<string, string>, body?: { body: Uint8Array<ArrayBuffer>; contentType: string }) {
  return fetch(`${server.url}/v3/token`, {
    method: 'POST',
    headers: { ...headers, ...(body && { 'content-type': body.contentType }) },
    body: body?.body,
  })
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
}

describe('POST /v3/token', () => {
  it('issues a 15-minute HS256 JWT for partner id + API key headers, with no body', async () => {
    const res = await tokenCall({ 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(Object.keys(body)).toEqual(['token'])
    const claims = claimsOf(body.token)
    expect(claims).toMatchObject({ partner_id: PARTNER_ID, policy: 0 })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900)
    expect(JSON.parse(Buffer.from(body.token.split('.')[0], 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    })
  })

  it('takes the partner id with leading zeros, and binds user_id, product and partner_params from a multipart body', async () => {
    const form = encodeMultipart(
      partsOf({ user_id: 'user-42', product: 'enhanced_kyc', partner_params: { ref: 'abc' } }),
    )
    const res = await tokenCall({ 'smileid-partner-id': `00${PARTNER_ID}`, 'smileid-api-key': API_KEY }, form)
    expect(res.status).toBe(200)
    expect(claimsOf((await res.json()).token)).toMatchObject({
      partner_id: PARTNER_ID,
      user_id: 'user-42',
      product: 'enhanced_kyc',
      partner_params: { ref: 'abc' },
    })
  })

  it.each([
    [{ 'smileid-api-key': API_KEY }, 400, 'smileid-partner-id header is required.'],
    [{ 'smileid-partner-id': PARTNER_ID }, 401, 'Invalid authentication credentials.'],
    [{ 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': 'wrong' }, 401, 'Invalid authentication credentials.'],
    [{ 'smileid-partner-id': '9999', 'smileid-api-key': API_KEY }, 401, 'Invalid authentication credentials.'],
    [{ 'smileid-partner-id': 'abc', 'smileid-api-key': API_KEY }, 401, 'Invalid authentication credentials.'],
  ])('refuses %j with %i', async (headers, status, message) => {
    const res = await tokenCall(headers as Record<string, string>)
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ status: status === 400 ? 'Bad Request' : 'Unauthorized', message })
  })

  it('answers 415 for a non-multipart body and 400 for an unknown product', async () => {
    const json = await fetch(`${server.url}/v3/token`, {
      method: 'POST',
      headers: { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY, 'content-type': 'application/json' },
      body: '{"user_id":"x"}',
    })
    expect(json.status).toBe(415)
    expect(await json.json()).toEqual({
      status: 'Unsupported Media Type',
      message: 'Unsupported Media Type. Required Content-Type is multipart/form-data',
    })
    const bad = await tokenCall(
      { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY },
      encodeMultipart(partsOf({ product: 'teleportation' })),
    )
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe("Field 'product' is invalid.")
  })

  it("refuses the PII-reference payload, which this server does not support, in the field's own words", async () => {
    const res = await tokenCall(
      { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY },
      encodeMultipart(partsOf({ payload: { pii_ref: 'x' } })),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      status: 'Bad Request',
      message: "Field 'payload' is not supported by this server: send the fields in each request instead.",
    })
  })
})

describe('SmileID-Token on protected routes', () => {
  const status = (headers: Record<string, string>) =>
    fetch(`${server.url}/v3/status/job_01h455vb4pex5vsknk084sn02q`, { headers })

  it('answers 401 when the token is missing, malformed, forged, expired or its key revoked', async () => {
    const good = await client.fetchToken()
    const now = Math.floor(Date.now() / 1000)
    const key = deriveKey(SERVER_SECRET, 'jwt')
    const claims = claimsOf(good)
    const expired = await signJwt({ ...claims, iat: now - 1000, exp: now - 100 }, key)
    const forged = await signJwt({ ...claims, exp: now + 100 }, deriveKey('another-secret', 'jwt'))
    for (const headers of [
      {} as Record<string, string>,
      { 'SmileID-Token': 'not-a-jwt' },
      { 'SmileID-Token': forged },
      { 'SmileID-Token': expired },
    ]) {
      const res = await status(headers)
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ status: 'Unauthorized', message: 'Invalid authentication credentials.' })
    }
    expect((await status({ 'SmileID-Token': good })).status).toBe(404)

    const extra = await server.services.partners.addKey(PARTNER_ID, 'second-key')
    const second = new V3Client(server.url, PARTNER_ID, 'second-key')
    const token = await second.fetchToken()
    expect((await status({ 'SmileID-Token': token })).status).toBe(404)
    await server.services.partners.revokeKey(extra.id)
    expect((await status({ 'SmileID-Token': token })).status).toBe(401)
  })

  it('the client refreshes its token once after a 401 and retries', async () => {
    const c = new V3Client(server.url, PARTNER_ID, API_KEY)
    c.token = 'stale.token.value'
    const res = await c.get('/v3/services/id_status?country=NG&id_type=BVN')
    expect(res.status).toBe(200)
    expect(c.tokenFetches).toBe(1)
  })

  it('uses the route family 401 messages', async () => {
    const fraud = await fetch(`${server.url}/v3/users/u1/report_fraud`, { method: 'POST' })
    expect(await fraud.json()).toEqual({ status: 'Unauthorized', message: 'Invalid token' })
    const links = await fetch(`${server.url}/v3/hosted_links`)
    expect(await links.json()).toEqual({
      status: 'Unauthorized',
      message: 'Missing or invalid authentication credentials.',
    })
  })

  it('challenges with WWW-Authenticate naming the SmileID-Token header, before judging the body', async () => {
    const res = await fetch(`${server.url}/v3/enhanced_kyc`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'not a form',
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('SmileID-Token realm="v3"')
    expect(await res.json()).toEqual({ status: 'Unauthorized', message: 'Invalid authentication credentials.' })
    const links = await fetch(`${server.url}/v3/hosted_links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(11 * 1024 * 1024),
    })
    expect(links.status).toBe(401)
    expect(links.headers.get('www-authenticate')).toBe('SmileID-Token realm="v3"')
  })

  it('needs no token on the three public catalogue routes, but does on id_status', async () => {
    for (const path of ['bank_codes', 'supported_id_types', 'supported_documents']) {
      expect((await fetch(`${server.url}/v3/services/${path}`)).status).toBe(200)
    }
    expect((await fetch(`${server.url}/v3/services/id_status?country=NG&id_type=BVN`)).status).toBe(401)
  })

  it('answers 403 when User-ID, body user_id and the token disagree', async () => {
    const res = await client.post('/v3/enhanced_kyc', ekyc({ user_id: 'user-b' }), { 'User-ID': 'user-a' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ status: 'Forbidden', message: 'Token is not authorized for this user ID.' })

    const bound = new V3Client(server.url, PARTNER_ID, API_KEY)
    const form = encodeMultipart(partsOf({ user_id: 'user-bound' }))
    bound.token = (
      await (await tokenCall({ 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY }, form)).json()
    ).token
    const other = await bound.post('/v3/enhanced_kyc', ekyc(), { 'User-ID': 'someone-else' })
    expect(other.status).toBe(403)
    const same = await bound.post('/v3/enhanced_kyc', ekyc(), { 'User-ID': 'user-bound' })
    expect(same.status).toBe(202)
    expect(same.body.user_id).toBe('user-bound')
    const implicit = await bound.post('/v3/enhanced_kyc', ekyc())
    expect(implicit.body.user_id).toBe('user-bound')
  })

  it('refuses a product-scoped token on another product and on hosted links', async () => {
    const scoped = new V3Client(server.url, PARTNER_ID, API_KEY)
    scoped.token = (
      await (
        await tokenCall(
          { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY },
          encodeMultipart(partsOf({ product: 'one_time_aml' })),
        )
      ).json()
    ).token
    const form = encodeMultipart(partsOf(ekyc()))
    const ekycRes = await fetch(`${server.url}/v3/enhanced_kyc`, {
      method: 'POST',
      headers: { 'SmileID-Token': scoped.token!, 'content-type': form.contentType },
      body: form.body,
    })
    expect(ekycRes.status).toBe(403)
    expect((await ekycRes.json()).message).toBe('Token is not authorized for this product.')
    const links = await fetch(`${server.url}/v3/hosted_links`, { headers: { 'SmileID-Token': scoped.token! } })
    expect(links.status).toBe(401)
  })
})
