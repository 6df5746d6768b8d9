import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V3Client } from './helpers/client.ts'
import { ekyc } from './helpers/fixtures.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

describe('POST /v3/users/{user_id}/report_fraud', () => {
  const report = (o: Record<string, unknown> = {}) => ({
    is_fraud: 'true',
    reason: 'ACCOUNT_TAKEOVER',
    reported_by: 'analyst@example.com',
    ...o,
  })

  it.each([
    ['no is_fraud', report({ is_fraud: undefined }), "Required field 'is_fraud' is missing or invalid."],
    ['no reason', report({ reason: undefined }), "Required field 'reason' is missing or invalid."],
    [
      'unknown reason',
      report({ reason: 'BAD_VIBES' }),
      "Field 'reason' must be one of: FIRST_PARTY_FRAUD, SECOND_PARTY_FRAUD, THIRD_PARTY_FRAUD, SYNTHETIC_IDENTITY, ACCOUNT_TAKEOVER, DOCUMENT_FORGERY, IDENTITY_FARMING, MULE_ACCOUNT, OTHER.",
    ],
    [
      'OTHER without notes',
      report({ reason: 'OTHER' }),
      "Required field 'notes' is missing or invalid when reason is 'OTHER'.",
    ],
    [
      'clearing without notes',
      report({ is_fraud: 'false' }),
      "Required field 'notes' is missing or invalid when is_fraud is false.",
    ],
    ['long notes', report({ notes: 'x'.repeat(501) }), "Field 'notes' must be at most 500 characters."],
    ['bad reporter', report({ reported_by: 'analyst' }), "Field 'reported_by' must be a valid email address."],
  ])('%s → 400', async (_n, fields, message) => {
    const res = await client.post('/v3/users/fraud-user/report_fraud', fields)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
  })

  it('answers 404 for an unknown user and for another action', async () => {
    const res = await client.post('/v3/users/never-seen/report_fraud', report())
    expect(res.body).toEqual({ status: 'Not Found', message: 'User not found' })
    expect((await client.post('/v3/users/never-seen/unflag', report())).status).toBe(404)
  })

  it('flags a user, whose later jobs block with antifraud set, and clears them again', async () => {
    const headers = { 'User-ID': 'fraud-user' }
    expect((await client.post('/v3/enhanced_kyc/sync', ekyc(), headers)).body.status).toBe('clear')
    const flagged = await client.post('/v3/users/fraud-user/report_fraud', report())
    expect(flagged.status).toBe(202)
    expect(flagged.body).toEqual({ status: 'accepted', message: 'Fraud report accepted', user_id: 'fraud-user' })
    const blocked = await client.post('/v3/enhanced_kyc/sync', ekyc(), headers)
    expect(blocked.body).toMatchObject({
      status: 'block',
      reason: 'high_risk',
      antifraud: {
        fraud_risk_level: 'high',
        fraud_risk_indicator_groups: [{ group: 'reported_fraud', indicators: ['ACCOUNT_TAKEOVER'] }],
      },
    })
    const cleared = await client.post(
      '/v3/users/fraud-user/report_fraud',
      report({ is_fraud: 'false', notes: 'False alarm, confirmed by phone' }),
    )
    expect(cleared.status).toBe(202)
    await new Promise((r) => setTimeout(r, 5))
    expect((await client.post('/v3/enhanced_kyc/sync', ekyc(), headers)).body).toMatchObject({
      status: 'clear',
      antifraud: null,
    })
  })
})

describe('reference data', () => {
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    return { status: res.status, body: await res.json() }
  }

  it('lists bank codes, filtered by country', async () => {
    const ng = await get('/v3/services/bank_codes?country=NG')
    expect(ng.body.bank_codes).toContainEqual({ code: '044', country: 'NG', name: 'Access Bank' })
    expect((await get('/v3/services/bank_codes?country=KE')).body).toEqual({ bank_codes: [] })
    expect(await get('/v3/services/bank_codes?country=ng')).toEqual({
      status: 400,
      body: {
        error:
          'Country Code must be a valid ISO 3166-1 alpha-2 country code consisting of exactly two uppercase letters.',
        code: '2413',
      },
    })
  })

  it('lists supported ID types with regexes, BANK_ACCOUNT once per bank', async () => {
    const { body } = await get('/v3/services/supported_id_types?country=NG')
    expect(body.id_types).toContainEqual({
      country: 'NG',
      type: 'BVN',
      label: 'Bank Verification Number',
      regex: '^[0-9]{11}$',
      required_fields: ['id_number', 'first_name', 'last_name', 'dob'],
    })
    const banks = body.id_types.filter((t: { type: string }) => t.type === 'BANK_ACCOUNT')
    expect(banks.length).toBeGreaterThan(10)
    expect(banks).toContainEqual(expect.objectContaining({ label: 'Bank Account (Access Bank)', bank_code: '044' }))
    for (const t of body.id_types) expect(() => new RegExp(t.regex)).not.toThrow()
  })

  it('lists supported documents by continent, country and locale', async () => {
    const ng = await get('/v3/services/supported_documents?country_code=NG')
    expect(ng.body.valid_documents).toHaveLength(1)
    expect(ng.body.valid_documents[0].country).toEqual({ code: 'NG', name: 'Nigeria', continent: 'AFRICA' })
    expect(ng.body.valid_documents[0].id_types).toContainEqual(
      expect.objectContaining({ code: 'PASSPORT', has_back: false }),
    )
    const europe = await get('/v3/services/supported_documents?continent=EUROPE&locale=fr-FR')
    expect(europe.body.valid_documents.map((d: any) => d.country.name)).toContain('Royaume-Uni')
    expect((await get('/v3/services/supported_documents?continent=ATLANTIS')).status).toBe(400)
    expect((await get('/v3/services/supported_documents?locale=xx-XX')).status).toBe(400)
  })

  it('answers id_status with a token, by ISO code or country name', async () => {
    const ok = await client.get('/v3/services/id_status?country=Nigeria&id_type=BVN')
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      last_check_status: 'success',
      last_known_status: 'online',
      last_hour_success_rate: '100%',
      last_check_success_rate: '100%',
    })
    expect((await client.get('/v3/services/id_status?id_type=BVN')).body).toEqual({
      status: 'Bad Request',
      message: '"country" is required',
    })
    expect((await client.get('/v3/services/id_status?country=Atlantis&id_type=BVN')).body.message).toBe(
      'Invalid country',
    )
    expect((await client.get('/v3/services/id_status?country=NG&id_type=SSNIT')).body.message).toBe(
      'Invalid id_type for the given country',
    )
    expect((await client.get('/v3/services/id_status?country=NG&id_type=PHONE_NUMBER')).body.message).toBe(
      'No data found. Check that NG and PHONE_NUMBER are valid inputs',
    )
  })

  it('answers 405 with Allow and 404 in the v3 envelope', async () => {
    const res = await fetch(`${server.url}/v3/services/bank_codes`, { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const missing = await fetch(`${server.url}/v3/nothing-here`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ status: 'Not Found', message: 'No controller answers GET /v3/nothing-here' })
  })
})
