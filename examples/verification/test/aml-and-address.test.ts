import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confirmSidSignature } from '../src/auth/sid-signature.ts'
import { V3Client } from './helpers/client.ts'
import { CALLBACK, CLEARWATER, CONSENT, ekyc, person } from './helpers/fixtures.ts'
import { partsOf } from './helpers/multipart.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

const aml = (o: Record<string, unknown> = {}) => ({
  countries: ['NG', 'KE'],
  full_name: 'Jane Quietly',
  user_details: CLEARWATER,
  consent: CONSENT,
  callback_url: CALLBACK,
  ...o,
})

describe('POST /v3/aml', () => {
  it('answers 202 in the short shape and screens the name in the background', async () => {
    const res = await client.post('/v3/aml', aml({ full_name: 'Desmond Kettleby' }))
    expect(res.status).toBe(202)
    expect(Object.keys(res.body).sort()).toEqual(['job_id', 'message', 'status', 'user_id'])
    expect(res.body.message).toBe('Job submitted successfully')
    await client.waitUntilComplete(res.body.job_id)
    const result = (await server.services.jobs.get(res.body.job_id))!.result as any
    expect(result).toMatchObject({
      product: 'one_time_aml',
      status: 'attention',
      reason: 'news_media_match',
      message: 'Screening completed: news media identified only.',
      no_of_persons_found: 1,
      strict_match: true,
    })
    expect(result.people[0]).toMatchObject({
      ref: 'ref_004',
      name: 'Desmond Kettleby',
      news_summary: [
        { news_category: 'financial_crime', number_of_articles: 3 },
        { news_category: 'legal_risk', number_of_articles: 1 },
      ],
    })
  })

  it.each([
    ['no countries', aml({ countries: undefined }), "Required field 'countries' is missing or invalid."],
    ['countries not an array', aml({ countries: 'NG' }), "Required field 'countries' is missing or invalid."],
    ['unknown country', aml({ countries: ['NG', 'XX'] }), "Required field 'countries' is missing or invalid."],
    ['lower-case country', aml({ countries: ['ng'] }), "Required field 'countries' is missing or invalid."],
    ['empty countries', aml({ countries: [] }), "Required field 'countries' is missing or invalid."],
    ['countries not JSON', aml({ countries: '["NG"' }), "Required field 'countries' is missing or invalid."],
    ['countries a JSON object', aml({ countries: { NG: true } }), "Required field 'countries' is missing or invalid."],
    ['aliases of numbers', aml({ aliases: [1, 2] }), "Required field 'aliases' is missing or invalid."],
    ['aliases not JSON', aml({ aliases: 'J. Doe' }), "Required field 'aliases' is missing or invalid."],
    ['no full_name', aml({ full_name: undefined }), "Required field 'full_name' is missing or invalid."],
    ['birth_year as a date', aml({ birth_year: '1980-01-01' }), "Field 'birth_year' is invalid."],
    ['birth_year in the future', aml({ birth_year: '3000' }), "Field 'birth_year' is invalid."],
    ['strict_match maybe', aml({ strict_match: 'maybe' }), "Field 'strict_match' is invalid."],
    [
      '21 aliases',
      aml({ aliases: Array.from({ length: 21 }, (_, i) => `a${i}`) }),
      "Field 'aliases' must contain at most 20 entries.",
    ],
    ['long alias', aml({ aliases: ['x'.repeat(257)] }), "Field 'aliases' entries must be at most 256 characters."],
    [
      'search_existing_user without user_id',
      aml({ search_existing_user: 'true' }),
      "Required field 'user_id' is missing or invalid when search_existing_user is true.",
    ],
    [
      'no contact',
      aml({ user_details: { given_names: 'A', last_name: 'B' } }),
      'Either user_details.email or user_details.phone_number is required.',
    ],
    ['no callback', aml({ callback_url: undefined }), "Required field 'callback_url' is missing or invalid."],
  ])('%s → 400', async (_n, fields, message) => {
    const res = await client.post('/v3/aml', fields)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
  })

  it('takes countries only as one part of JSON text: repeated parts are refused, as the contract says (the last overwrites the rest)', async () => {
    const { countries: _, ...rest } = aml()
    const repeated = [...partsOf(rest), { name: 'countries', value: 'NG' }, { name: 'countries', value: 'KE' }]
    const res = await client.post('/v3/aml/sync', repeated)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe("Required field 'countries' is missing or invalid.")
    const json = await client.post('/v3/aml/sync', [...partsOf(rest), { name: 'countries', value: '["NG","KE"]' }])
    expect(json.status).toBe(200)
  })

  it('search_existing_user needs a known user with a cleared KYC record', async () => {
    const unknown = await client.post('/v3/aml', aml({ search_existing_user: 'true', user_id: 'stranger' }))
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('No enrolled user found for this partner.')
    await client.post('/v3/enhanced_kyc/sync', ekyc({ user_details: person('Jane', 'Nobody') }), {
      'User-ID': 'blocked-user',
    })
    const noKyc = await client.post('/v3/aml', aml({ search_existing_user: 'true', user_id: 'blocked-user' }))
    expect(noKyc.body.message).toBe('No prior KYC record with a usable name and country was found for this user.')
    await client.post('/v3/enhanced_kyc/sync', ekyc(), { 'User-ID': 'kyc-user' })
    const ok = await client.post(
      '/v3/aml/monitoring',
      aml({ full_name: undefined, search_existing_user: 'true', user_id: 'kyc-user' }),
    )
    expect(ok.status).toBe(202)
    expect(ok.body.created_at).toBeDefined()
    const job = await server.services.jobs.get(ok.body.job_id)
    expect(job!.request.full_name).toBe('Amina Fatou Clearwater')
  })
})

describe('POST /v3/aml/sync', () => {
  it('answers the signed result inline; a sanctioned name blocks with the matched person', async () => {
    const res = await client.post('/v3/aml/sync', aml({ full_name: 'Viktor Ashgrave', callback_url: undefined }))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'block',
      reason: 'aml_match_found',
      message: 'Screening completed: potential matches identified.',
      no_of_persons_found: 1,
    })
    expect(res.body.people[0].sanctions).toHaveLength(2)
    expect(
      confirmSidSignature(
        API_KEY,
        PARTNER_ID,
        res.headers.get('Response-Timestamp')!,
        res.headers.get('Response-Signature')!,
      ),
    ).toBe(true)
  })

  it('matches aliases, loose names, and honours birth_year', async () => {
    const alias = await client.post('/v3/aml/sync', aml({ full_name: 'Someone Else', aliases: ['Maggie Ollenbrook'] }))
    expect(alias.body).toMatchObject({ status: 'block', people: [{ ref: 'ref_003', pep: { pep_level: 1 } }] })
    const strict = await client.post('/v3/aml/sync', aml({ full_name: 'Viktor James Ashgrave' }))
    expect(strict.body.status).toBe('clear')
    const loose = await client.post('/v3/aml/sync', aml({ full_name: 'Viktor James Ashgrave', strict_match: 'false' }))
    expect(loose.body).toMatchObject({ status: 'block', strict_match: false })
    const otherYear = await client.post('/v3/aml/sync', aml({ full_name: 'Viktor Ashgrave', birth_year: '1990' }))
    expect(otherYear.body).toMatchObject({
      status: 'clear',
      people: [],
      message: 'Screening completed: no matches found.',
    })
    const down = await client.post('/v3/aml/sync', aml({ user_details: person('Ngozi Ifeoma', 'Downsworth') }))
    expect(down.body).toMatchObject({ status: 'error', reason: 'service_unavailable' })
  })

  it('gives each matched person the published AmlPersonMatch shape: objects in the lists, pep always an object', async () => {
    const sanctioned = await client.post('/v3/aml/sync', aml({ full_name: 'Rashid Omar Dangerfield' }))
    expect(sanctioned.body.people[0]).toMatchObject({
      ref: 'ref_001',
      aliases: [{ name: 'R. O. Dangerfield' }, { name: 'Rashid Dangerfield' }],
      addresses: [{ address: '12 Lantern Quay, Lagos, Nigeria' }],
      dates_of_birth: [{ date: '1972-04-11' }],
      nationalities: [{ country: 'Nigeria' }],
      pep: { pep_level: null, political_positions: [], sources: [] },
    })
    const pep = await client.post('/v3/aml/sync', aml({ full_name: 'Someone Else', aliases: ['Maggie Ollenbrook'] }))
    expect(pep.body.people[0].pep).toEqual({
      pep_level: 1,
      political_positions: ['Minister of Imaginary Affairs (ZA, 2014–2019)'],
      sources: [{ url: 'https://gov.example/cabinet-2014' }],
    })
    for (const person of [sanctioned.body.people[0], pep.body.people[0]]) {
      for (const list of [
        'aliases',
        'addresses',
        'dates_of_birth',
        'nationalities',
        'associations',
        'sanctions',
        'enforcement_actions',
      ]) {
        expect(
          person[list].every((item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item)),
          list,
        ).toBe(true)
      }
    }
  })

  it('news alone is attention even though every person now carries a pep object', async () => {
    const res = await client.post('/v3/aml/sync', aml({ full_name: 'Desmond Kettleby' }))
    expect(res.body).toMatchObject({
      status: 'attention',
      reason: 'news_media_match',
      people: [{ pep: { pep_level: null } }],
    })
  })

  it('returns the first result again for a repeated idempotency key', async () => {
    const key = 'idem-key-0123456789'
    const first = await client.post('/v3/aml/sync', aml({ full_name: 'Viktor Ashgrave' }), {
      'SmileID-Idempotency-Key': key,
    })
    const second = await client.post('/v3/aml/sync', aml({ full_name: 'Nobody Special' }), {
      'SmileID-Idempotency-Key': key,
    })
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('SmileID-Job-ID')).toBe(first.body.job_id)
    const bad = await client.post('/v3/aml/sync', aml(), { 'SmileID-Idempotency-Key': 'short' })
    expect(bad.status).toBe(400)
  })
})

describe('GET /v3/aml/monitoring/{job_id}/news/{reference}', () => {
  it('pages the articles of a matched person by category', async () => {
    const res = await client.post('/v3/aml/monitoring', aml({ full_name: 'Viktor Ashgrave' }))
    await client.waitUntilComplete(res.body.job_id)
    const base = `/v3/aml/monitoring/${res.body.job_id}/news/ref_002`
    const news = await client.get(`${base}?news_category=financial_crime&limit=1&page=2`)
    expect(news.status).toBe(200)
    expect(news.body).toMatchObject({
      job_id: res.body.job_id,
      product: 'aml_monitoring_news',
      meta: { current_page: 2, limit: 1, total_count: 2 },
    })
    expect(news.body.news).toEqual([
      expect.objectContaining({
        title: 'Shell company network mapped',
        publisher_country_code: 'NG',
        url: expect.stringMatching(/^https:\/\/news\.example\//),
      }),
    ])
    const missing = await client.get(base)
    expect(missing.body).toEqual({ status: 'Bad Request', message: 'news_category is required' })
    const wrong = await client.get(`${base}?news_category=gossip`)
    expect(wrong.body.message).toMatch(/^news_category must be one of: arms_trafficking, /)
    expect((await client.get(`${base}?news_category=terrorism&page=0`)).status).toBe(400)
    const otherRef = await client.get(`/v3/aml/monitoring/${res.body.job_id}/news/ref_001?news_category=terrorism`)
    expect(otherRef.body).toEqual({ status: 'Not Found', message: 'REF not found for this AML job' })
    const noJob = await client.get('/v3/aml/monitoring/a1b2c3d4e5/news/ref_002?news_category=terrorism')
    expect(noJob.body.message).toBe('No AML job found for this partner')
    expect((await client.get(`/v3/aml/monitoring/${res.body.job_id}/articles/ref_002`)).status).toBe(404)
  })
})

describe('POST /v3/address', () => {
  const address = (o: Record<string, unknown> = {}) => ({
    address: '1 Example Road, Lagos',
    country: 'NG',
    utility_number: '45012345678',
    utility_provider: 'IKEDC',
    utility_type: 'PrePaid',
    user_details: CLEARWATER,
    consent: CONSENT,
    callback_url: CALLBACK,
    ...o,
  })

  it.each([
    ['no address', address({ address: undefined }), "Required field 'address' is missing or invalid."],
    ['country GH', address({ country: 'GH' }), "Field 'country' must be one of NG, ZA."],
    ['no identifier', address({ utility_number: undefined }), "Either 'id_number' or 'utility_number' is required."],
    [
      'bad utility type',
      address({ utility_type: 'Monthly' }),
      "Field 'utility_type' must be one of PrePaid, PostPaid.",
    ],
    ['ZA without id_number', address({ country: 'ZA' }), "Required field 'id_number' is missing or invalid."],
    [
      'ZA bad id_number',
      address({ country: 'ZA', id_number: '123' }),
      'Invalid ID number format for the specified country and ID type.',
    ],
  ])('%s → 400', async (_n, fields, message) => {
    const res = await client.post('/v3/address', fields)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
  })

  it.each([
    ['Clearwater NG', address(), 'clear', null],
    ['Youngblood', address({ user_details: person('Aisha Lawal', 'Youngblood') }), 'attention', 'information_outdated'],
    ['Twinley', address({ user_details: person('Obinna Chukwu', 'Twinley') }), 'block', 'address_out_of_range'],
    ['Dangerfield', address({ user_details: person('Rashid Omar', 'Dangerfield') }), 'block', 'name_mismatch'],
    ['unknown person', address({ user_details: person('Jane', 'Nobody') }), 'block', 'no_address_on_record'],
    [
      'ZA test number …3',
      address({ country: 'ZA', id_number: '0000000000003', user_details: person('Jane', 'Nobody') }),
      'error',
      'service_unavailable',
    ],
  ])('%s → %s', async (_n, fields, status, reason) => {
    const res = await client.post('/v3/address', fields)
    expect(res.status).toBe(202)
    expect(res.body.message).toBe('Job submitted successfully')
    await client.waitUntilComplete(res.body.job_id)
    expect((await server.services.jobs.get(res.body.job_id))!.result).toMatchObject({
      product: 'address_verification',
      status,
      reason,
    })
  })
})
