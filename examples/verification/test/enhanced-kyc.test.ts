import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confirmSidSignature } from '../src/auth/sid-signature.ts'
import { V3Client } from './helpers/client.ts'
import { CLEARWATER, CONSENT, ekyc, person } from './helpers/fixtures.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

const without = (field: string) => ekyc({ [field]: undefined })

describe('POST /v3/enhanced_kyc: bad inputs', () => {
  it.each([
    ['no country', without('country'), 400, "Required field 'country' is missing or invalid."],
    ['lower-case country', ekyc({ country: 'ng' }), 400, "Required field 'country' is missing or invalid."],
    ['unknown country', ekyc({ country: 'QQ' }), 400, "Required field 'country' is missing or invalid."],
    ['no id_type', without('id_type'), 400, "Required field 'id_type' is missing or invalid."],
    ['id_type of another country', ekyc({ id_type: 'SSNIT' }), 400, "Required field 'id_type' is missing or invalid."],
    ['id_type without KYC support', ekyc({ id_type: 'PHONE_NUMBER' }), 403, 'ID type not enabled for this partner.'],
    ['no id_number', without('id_number'), 400, "Required field 'id_number' is missing or invalid."],
    [
      'id_number off the regex',
      ekyc({ id_number: '1234' }),
      400,
      'Invalid ID number format for the specified country and ID type.',
    ],
    [
      'legacy test number ending in 2',
      ekyc({ id_number: '00000000002', user_details: person('Test', 'User') }),
      400,
      'Invalid ID number format for the specified country and ID type.',
    ],
    [
      'BANK_ACCOUNT without bank_code',
      ekyc({ id_type: 'BANK_ACCOUNT', id_number: '0123456789' }),
      400,
      "Required field 'bank_code' is missing or invalid.",
    ],
    [
      'BANK_ACCOUNT with unknown bank',
      ekyc({ id_type: 'BANK_ACCOUNT', id_number: '0123456789', bank_code: '999' }),
      400,
      "Required field 'bank_code' is missing or invalid.",
    ],
    ['no user_details', without('user_details'), 400, "Required field 'user_details' is missing or invalid."],
    [
      'user_details not JSON',
      ekyc({ user_details: '{nope' }),
      400,
      "Required field 'user_details' is missing or invalid.",
    ],
    [
      'no given names',
      ekyc({ user_details: { last_name: 'X', email: 'x@example.com' } }),
      400,
      "Required field 'user_details.given_names' is missing or invalid.",
    ],
    [
      'no contact',
      ekyc({ user_details: { given_names: 'A', last_name: 'B' } }),
      400,
      'Either email or phone_number is required.',
    ],
    ['bad email', ekyc({ user_details: { ...CLEARWATER, email: 'not-an-email' } }), 400, "Field 'email' is invalid."],
    [
      'bad phone',
      ekyc({ user_details: { given_names: 'A', last_name: 'B', phone_number: '0803' } }),
      400,
      "Field 'phone_number' is invalid.",
    ],
    ['no consent', without('consent'), 400, 'consent is required'],
    [
      'consent not granted',
      ekyc({ consent: { ...CONSENT, granted: false } }),
      400,
      "Required field 'consent.granted' is missing or invalid.",
    ],
    [
      'consent without granted_at',
      ekyc({ consent: { ...CONSENT, granted_at: undefined } }),
      400,
      "Required field 'consent.granted_at' is missing or invalid.",
    ],
    [
      'consent in the future',
      ekyc({ consent: { ...CONSENT, granted_at: new Date(Date.now() + 3_600_000).toISOString() } }),
      400,
      "Required field 'consent.granted_at' cannot be set in the future.",
    ],
    [
      'consent language',
      ekyc({ consent: { ...CONSENT, notice_language: 'english' } }),
      400,
      "Required field 'consent.notice_language' is missing or invalid.",
    ],
    [
      'consent http policy url',
      ekyc({ consent: { ...CONSENT, notice_privacy_policy_url: 'http://example.com' } }),
      400,
      "Required field 'consent.notice_privacy_policy_url' is missing or invalid.",
    ],
    [
      'no callback_url and no partner default',
      without('callback_url'),
      400,
      'A valid callback_url is required in the request or a default callback URL must be configured in the portal.',
    ],
    [
      'callback_url with credentials',
      ekyc({ callback_url: 'https://user:pw@example.com/hook' }),
      400,
      'A valid callback_url is required in the request or a default callback URL must be configured in the portal.',
    ],
    [
      'callback_url not http',
      ekyc({ callback_url: 'ftp://example.com/hook' }),
      400,
      'A valid callback_url is required in the request or a default callback URL must be configured in the portal.',
    ],
    [
      'partner_params not an object',
      ekyc({ partner_params: ['a'] }),
      400,
      "Required field 'partner_params' is missing or invalid.",
    ],
    ['partner_params nested', ekyc({ partner_params: { a: { b: 1 } } }), 400, "Field 'partner_params' is invalid."],
    ['metadata entry without name', ekyc({ metadata: [{ value: 'x' }] }), 400, "Field 'metadata' is invalid."],
    ['metadata not JSON', ekyc({ metadata: 'name=x' }), 400, "Field 'metadata' is invalid."],
    ['metadata an object', ekyc({ metadata: { name: 'x', value: 'y' } }), 400, "Field 'metadata' is invalid."],
    [
      '51 metadata entries',
      ekyc({ metadata: Array.from({ length: 51 }, (_, i) => ({ name: `m${i}`, value: i })) }),
      400,
      "Field 'metadata' is invalid.",
    ],
    [
      'partner_params with 51 keys',
      ekyc({ partner_params: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
      400,
      "Required field 'partner_params' is missing or invalid.",
    ],
    [
      'partner_params with a __proto__ key',
      ekyc({ partner_params: JSON.parse('{"__proto__":{"polluted":"yes"}}') }),
      400,
      "Field 'partner_params' is invalid.",
    ],
    [
      'consent on a day that does not exist',
      ekyc({ consent: { ...CONSENT, granted_at: '2024-02-30T10:00:00Z' } }),
      400,
      "Required field 'consent.granted_at' is missing or invalid.",
    ],
    [
      'consent granted as text',
      ekyc({ consent: { ...CONSENT, granted: 'true' } }),
      400,
      "Required field 'consent.granted' is missing or invalid.",
    ],
    [
      'given names blank',
      ekyc({ user_details: { ...CLEARWATER, given_names: '   ' } }),
      400,
      "Required field 'user_details.given_names' is missing or invalid.",
    ],
    ['email a number', ekyc({ user_details: { ...CLEARWATER, email: 42 } }), 400, "Field 'email' is invalid."],
    [
      'repeated country part',
      ekyc({ country: undefined, _: undefined }),
      400,
      "Required field 'country' is missing or invalid.",
    ],
  ])('%s → %i', async (_name, fields, status, message) => {
    const res = await client.post('/v3/enhanced_kyc', fields)
    expect(res.status).toBe(status)
    expect(res.body).toEqual({ status: status === 400 ? 'Bad Request' : 'Forbidden', message })
  })

  it('answers 415 for JSON, urlencoded and text bodies, 400 for a broken multipart body', async () => {
    const token = client.token ?? (await client.fetchToken())
    for (const [type, body] of [
      ['application/json', JSON.stringify(ekyc())],
      ['application/x-www-form-urlencoded', 'country=NG'],
      ['text/plain', 'hello'],
    ]) {
      const res = await fetch(`${server.url}/v3/enhanced_kyc`, {
        method: 'POST',
        headers: { 'SmileID-Token': token, 'content-type': type! },
        body,
      })
      expect(res.status).toBe(415)
      expect((await res.json()).message).toBe('Unsupported Media Type. Required Content-Type is multipart/form-data')
    }
    const broken = await fetch(`${server.url}/v3/enhanced_kyc`, {
      method: 'POST',
      headers: { 'SmileID-Token': token, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nbroken',
    })
    expect(broken.status).toBe(400)
    expect((await broken.json()).status).toBe('Bad Request')
  })

  it('answers 413 in the gateway envelope for a body over 10 MB', async () => {
    // In process: over node:http a client still uploading gets ECONNRESET instead of this answer (see the README).
    const token = client.token ?? (await client.fetchToken())
    const res = await server.service.app.request('/v3/enhanced_kyc', {
      method: 'POST',
      headers: {
        'SmileID-Token': token,
        'content-type': 'multipart/form-data; boundary=xyz',
        'content-length': String(10 * 1024 * 1024 + 1),
      },
      body: new Uint8Array(16),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      job_id: null,
      message: 'Request payload too large. Maximum allowed size is 10 MB.',
      status: 'payload_too_large',
      user_id: null,
    })
  })

  it('takes the partner default callback when none is sent', async () => {
    await server.services.partners.upsert(PARTNER_ID, 'Test partner', 'http://127.0.0.1:9/default')
    try {
      const res = await client.post('/v3/enhanced_kyc', without('callback_url'))
      expect(res.status).toBe(202)
      expect((await server.services.jobs.get(res.body.job_id))!.callbackUrl).toBe('http://127.0.0.1:9/default')
    } finally {
      await server.services.partners.upsert(PARTNER_ID, 'Test partner', null)
    }
  })
})

describe('POST /v3/enhanced_kyc: the job lifecycle', () => {
  it('answers 202 accepted, is processing (202) and then terminal (200) on /v3/status', async () => {
    const res = await client.post('/v3/enhanced_kyc', ekyc(), { 'User-ID': 'user-lifecycle' })
    expect(res.status).toBe(202)
    expect(Object.keys(res.body)).toEqual(['status', 'message', 'job_id', 'user_id', 'created_at'])
    expect(res.body).toMatchObject({
      status: 'accepted',
      message: 'Request accepted and queued for processing.',
      user_id: 'user-lifecycle',
    })
    expect(res.body.job_id).toMatch(/^job_[0-9a-hjkmnp-tv-z]{26}$/)
    const first = await client.get(`/v3/status/${res.body.job_id}`)
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({
      status: 'processing',
      job_id: res.body.job_id,
      user_id: 'user-lifecycle',
      message: 'Job is still processing',
    })
    const done = await client.waitUntilComplete(res.body.job_id)
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ status: 'clear', message: 'Job completed', user_id: 'user-lifecycle' })
    expect(done.headers.get('job_id')).toBe(res.body.job_id)
    expect(done.headers.get('user_id')).toBe('user-lifecycle')
    expect(done.headers.get('api_version')).toMatch(/^v3\./)
  })

  it('mints a user_ TypeID when no user id is given', async () => {
    const res = await client.post('/v3/enhanced_kyc', ekyc())
    expect(res.body.user_id).toMatch(/^user_[0-9a-hjkmnp-tv-z]{26}$/)
  })

  it('answers status 400 for a malformed id and 404 (as data) for unknown or foreign jobs', async () => {
    const bad = await client.get('/v3/status/job_123')
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ status: 'Bad Request', message: `"jobId" must be a valid TypeID with prefix 'job_'` })
    const unknown = await client.get('/v3/status/job_01h455vb4pex5vsknk084sn02q')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({
      status: 'not_found',
      job_id: 'job_01h455vb4pex5vsknk084sn02q',
      user_id: 'unknown',
      message: 'Job not found',
    })

    const mine = await client.post('/v3/enhanced_kyc', ekyc())
    await server.services.partners.upsert('5678', 'Other', null)
    await server.services.partners.addKey('5678', 'other-key')
    const other = new V3Client(server.url, '5678', 'other-key')
    expect((await other.get(`/v3/status/${mine.body.job_id}`)).status).toBe(404)
  })
})

describe('sandbox outcomes for enhanced KYC', () => {
  const cases: Array<[string, Record<string, unknown>, string, string | null, string]> = [
    ['Clearwater', { user_details: CLEARWATER }, 'clear', null, 'Verification successful'],
    [
      'Dangerfield',
      { user_details: person('Rashid Omar', 'Dangerfield') },
      'block',
      'high_risk',
      'Verification failed',
    ],
    [
      'Ghostwell',
      { user_details: person('Fatima Bello', 'Ghostwell') },
      'block',
      'identifier_not_found',
      'Verification failed: Unable to validate ID - Not Found',
    ],
    [
      'Youngblood',
      { user_details: person('Aisha Lawal', 'Youngblood') },
      'block',
      'age_requirement_not_met',
      'Verification failed: Customer must be above 18',
    ],
    [
      'Downsworth',
      { user_details: person('Ngozi Ifeoma', 'Downsworth') },
      'error',
      'service_unavailable',
      'Error: external service unavailable',
    ],
    [
      'unknown person',
      { user_details: person('Jane', 'Nobody') },
      'block',
      'unknown_test_identity',
      'Verification failed: not a sandbox test identity',
    ],
    [
      'test number …0',
      { user_details: person('Jane', 'Nobody'), id_number: '00000000000' },
      'clear',
      null,
      'Verification successful',
    ],
    [
      'test number …1',
      { user_details: person('Jane', 'Nobody'), id_number: '00000000001' },
      'block',
      'identifier_not_found',
      'Verification failed: Unable to validate ID - Not Found',
    ],
    [
      'test number …3',
      { user_details: person('Jane', 'Nobody'), id_number: '00000000003' },
      'error',
      'service_unavailable',
      'Error: external service unavailable',
    ],
    [
      'partner_params sandbox_result 1',
      { partner_params: { sandbox_result: '1' } },
      'block',
      'sandbox_result',
      'Verification failed',
    ],
  ]
  it.each(cases)('%s → %s', async (_name, overrides, status, reason, message) => {
    const res = await client.post('/v3/enhanced_kyc/sync', ekyc(overrides))
    if (status === 'error') {
      expect(res.status).toBe(424)
      expect(res.body).toEqual({
        status: 'Failed Dependency',
        message: 'Unable to verify ID — ID authority unavailable.',
      })
      const jobId = res.headers.get('SmileID-Job-ID')!
      expect((await client.get(`/v3/status/${jobId}`)).body.status).toBe('error')
      return
    }
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status, reason, message, product: 'enhanced_kyc' })
  })

  it('echoes partner_params and, with test number …4, lets them replace the returned id fields', async () => {
    const res = await client.post(
      '/v3/enhanced_kyc/sync',
      ekyc({
        user_details: person('Jane', 'Nobody'),
        id_number: '00000000004',
        partner_params: { full_name: 'Nelson Mandela', ref: 'r-1', job_type: '5' },
      }),
    )
    expect(res.status).toBe(200)
    expect(res.body.partner_params).toEqual({ full_name: 'Nelson Mandela', ref: 'r-1' })
    expect(res.body.id_fields).toMatchObject({
      full_name: 'Nelson Mandela',
      id_number: '00000000004',
      id_type: 'NIN',
      country: 'NG',
    })
  })

  it('keeps the user details trimmed, ignores members it does not know, and takes numbers and booleans in partner_params as text', async () => {
    const res = await client.post(
      '/v3/enhanced_kyc',
      ekyc({
        user_details: {
          given_names: ' Amina ',
          last_name: 'Clearwater ',
          email: null,
          phone_number: ' +2348012345678 ',
          dob: '1990-01-01',
          middle_name: 'F',
        },
        partner_params: { order: 77, gift: true },
      }),
    )
    expect(res.status).toBe(202)
    const job = await server.services.jobs.get(res.body.job_id)
    expect(job!.request.user_details).toEqual({
      given_names: 'Amina',
      last_name: 'Clearwater',
      phone_number: '+2348012345678',
      dob: '1990-01-01',
    })
    expect(job!.request.partner_params).toMatchObject({ order: '77', gift: 'true' })
  })

  it('runs the same decision asynchronously', async () => {
    const res = await client.post('/v3/enhanced_kyc', ekyc({ user_details: person('Fatima Bello', 'Ghostwell') }))
    const done = await client.waitUntilComplete(res.body.job_id)
    expect(done.body.status).toBe('block')
    const job = await server.services.jobs.get(res.body.job_id)
    expect(job!.result).toMatchObject({ reason: 'identifier_not_found', id_fields: null })
  })
})

describe('POST /v3/enhanced_kyc/sync', () => {
  it('answers the webhook payload, signed with Response-Signature over the partner id and Response-Timestamp', async () => {
    const res = await client.post('/v3/enhanced_kyc/sync', ekyc({ callback_url: undefined }), {
      'User-ID': 'user-sync',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      user_id: 'user-sync',
      product: 'enhanced_kyc',
      status: 'clear',
      reason: null,
      message: 'Verification successful',
      user_provided_info: {
        given_names: 'Amina Fatou',
        last_name: 'Clearwater',
        email: 'amina.clearwater@example.com',
        phone_number: null,
      },
      consent: CONSENT,
      id_fields: { full_name: 'Amina Fatou Clearwater', id_number: '12345678901' },
    })
    const timestamp = res.headers.get('Response-Timestamp')!
    expect(confirmSidSignature(API_KEY, PARTNER_ID, timestamp, res.headers.get('Response-Signature')!)).toBe(true)
    expect(confirmSidSignature('wrong-key', PARTNER_ID, timestamp, res.headers.get('Response-Signature')!)).toBe(false)
    expect(res.headers.get('SmileID-Job-ID')).toBe(res.body.job_id)
    expect(res.headers.get('User-ID')).toBe('user-sync')
    const status = await client.get(`/v3/status/${res.body.job_id}`)
    expect(status.body.status).toBe('clear')
    expect(await server.services.deliveries.listForJob(res.body.job_id)).toEqual([])
  })

  it('words a bad id number as the sync endpoint does', async () => {
    const res = await client.post('/v3/enhanced_kyc/sync', ekyc({ id_number: 'abc' }))
    expect(res.body).toEqual({ status: 'Bad Request', message: "Required field 'id_number' is missing or invalid." })
  })
})
