/**
 * The handlers' types are the contract: routeless checks each part and query parameter against the handler's
 * signature before the handler runs (wrong type, unknown field, missing field, out of range), and the v3 renderers
 * word its one 400 in the contract's envelopes. Over real HTTP, with the SDK's multipart encoding.
 */
import { createApp } from 'routeless'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTROLLERS, requireTypes } from '../src/app.ts'
import { V3Client } from './helpers/client.ts'
import { CALLBACK, CLEARWATER, CONSENT, ekyc, LIVENESS, SELFIE } from './helpers/fixtures.ts'
import { encodeMultipart, partsOf, type Part } from './helpers/multipart.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer({ worker: false })
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

const bkyc = (o: Record<string, unknown> = {}) => ({ ...ekyc(), selfie_image: SELFIE, liveness_images: LIVENESS, ...o })
const required = (field: string) => `Required field '${field}' is missing or invalid.`

describe("a multipart body, checked against the handler's form type", () => {
  it.each([
    // wrong type
    [
      'a file where text is declared (country)',
      '/v3/enhanced_kyc',
      [...partsOf(ekyc({ country: undefined })), { name: 'country', file: SELFIE }],
      required('country'),
    ],
    [
      'text where a file is declared (selfie_image)',
      '/v3/biometric_kyc',
      partsOf(bkyc({ selfie_image: 'selfie.jpg' })),
      required('selfie_image'),
    ],
    [
      'a repeated text part (id_type twice)',
      '/v3/enhanced_kyc',
      [...partsOf(ekyc()), { name: 'id_type', value: 'BVN' }],
      required('id_type'),
    ],
    [
      'a boolean that is not one',
      '/v3/registration',
      partsOf({
        ...bkyc(),
        country: undefined,
        id_type: undefined,
        id_number: undefined,
        allow_new_enroll: 'sometimes',
      }),
      "Field 'allow_new_enroll' is invalid.",
    ],
    [
      'a literal outside its union',
      '/v3/compare',
      partsOf({
        selfie_image: SELFIE,
        comparison_image: SELFIE,
        comparison_image_type: 'PASSPORT',
        user_details: CLEARWATER,
        consent: CONSENT,
        callback_url: CALLBACK,
      }),
      "Field 'comparison_image_type' must be either DOCUMENT, ID_PHOTO, or PORTRAIT.",
    ],
    // unknown field
    [
      'a field the endpoint does not take',
      '/v3/enhanced_kyc',
      partsOf(ekyc({ nickname: 'Ami' })),
      "Field 'nickname' is not supported.",
    ],
    [
      'a query parameter the endpoint does not take',
      '/v3/enhanced_kyc?debug=1',
      partsOf(ekyc()),
      "Field 'debug' is not supported.",
    ],
    // missing field
    [
      'a required text part (id_number)',
      '/v3/enhanced_kyc',
      partsOf(ekyc({ id_number: undefined })),
      required('id_number'),
    ],
    [
      'a required file part (liveness_images)',
      '/v3/biometric_kyc',
      partsOf(bkyc({ liveness_images: undefined })),
      required('liveness_images'),
    ],
    [
      "a required JSON part (consent), in the contract's words",
      '/v3/enhanced_kyc',
      partsOf(ekyc({ consent: undefined })),
      'consent is required',
    ],
    // out of range
    [
      '5 liveness frames',
      '/v3/biometric_kyc',
      partsOf(bkyc({ liveness_images: LIVENESS.slice(0, 5) })),
      "Field 'liveness_images' must contain between 6 and 8 images.",
    ],
    [
      '9 liveness frames',
      '/v3/biometric_kyc',
      partsOf(bkyc({ liveness_images: [...LIVENESS, SELFIE, SELFIE, SELFIE] })),
      "Field 'liveness_images' must contain between 6 and 8 images.",
    ],
    [
      'a negative sandbox_result',
      '/v3/biometric_kyc',
      partsOf(bkyc({ sandbox_result: '-840' })),
      "Field 'sandbox_result' is invalid.",
    ],
    [
      'an address over 512 characters',
      '/v3/address',
      partsOf({
        address: 'x'.repeat(513),
        country: 'ZA',
        id_number: '0001010000084',
        user_details: CLEARWATER,
        consent: CONSENT,
        callback_url: CALLBACK,
      }),
      required('address'),
    ],
    [
      'a malformed birth_year on monitoring, in its own words',
      '/v3/aml/monitoring',
      partsOf({
        countries: ['NG'],
        full_name: 'Jane Quietly',
        birth_year: '80',
        user_details: CLEARWATER,
        consent: CONSENT,
        callback_url: CALLBACK,
      }),
      "Field 'birth_year' must be a four digit year.",
    ],
  ] as [string, string, Part[], string][])('refuses %s with 400', async (_what, path, parts, message) => {
    const res = await client.post(path, parts)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'Bad Request', message })
  })

  it('answers one 400 when several parts are wrong, never a 500', async () => {
    const res = await client.post(
      '/v3/biometric_kyc',
      partsOf(bkyc({ selfie_image: 'x', liveness_images: undefined, id_number: undefined, extra: '1' })),
    )
    expect(res.status).toBe(400)
    expect(res.body.status).toBe('Bad Request')
  })

  it('takes booleans and numbers as the SDKs write them (True, 1220.0)', async () => {
    const res = await client.post(
      '/v3/registration',
      partsOf({
        selfie_image: SELFIE,
        liveness_images: LIVENESS,
        user_details: CLEARWATER,
        consent: CONSENT,
        callback_url: CALLBACK,
        allow_new_enroll: 'True',
        sandbox_result: '1220.0',
      }),
    )
    expect(res.status).toBe(202)
  })

  it('takes the fields the published report_fraud schema leaves open (additionalProperties: true)', async () => {
    await client.post('/v3/enhanced_kyc', ekyc({ user_id: 'typed-user' }))
    const res = await client.post('/v3/users/typed-user/report_fraud', {
      is_fraud: 'false',
      notes: 'Checked',
      reported_by: 'a@example.com',
      case_ref: 'C-1',
    })
    expect(res.status).toBe(202)
  })

  it("answers a JSON body with the contract's 415 before judging its fields", async () => {
    const token = await client.fetchToken()
    const res = await fetch(`${server.url}/v3/enhanced_kyc`, {
      method: 'POST',
      headers: { 'SmileID-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ country: 42 }),
    })
    expect(res.status).toBe(415)
    expect(res.headers.get('accept-post')).toBe('multipart/form-data')
    expect(await res.json()).toEqual({
      status: 'Unsupported Media Type',
      message: 'Unsupported Media Type. Required Content-Type is multipart/form-data',
    })
  })

  it('refuses a product-scoped token with 403 before any field is judged', async () => {
    const tokenRes = await tokenCall({ product: 'one_time_aml' })
    const scoped = new V3Client(server.url, PARTNER_ID, API_KEY)
    scoped.token = ((await tokenRes.json()) as { token: string }).token
    const res = await scoped.post('/v3/enhanced_kyc', { country: 12, nonsense: 'x' })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Token is not authorized for this product.')
  })

  it("checks the token's own form: a product outside the list, an unknown field", async () => {
    const call = tokenCall
    expect(await (await call({ product: 'teleportation' })).json()).toEqual({
      status: 'Bad Request',
      message: "Field 'product' is invalid.",
    })
    expect(await (await call({ user_id: 'a b' })).json()).toEqual({
      status: 'Bad Request',
      message: "Field 'user_id' is invalid.",
    })
    expect(await (await call({ scope: 'all' })).json()).toEqual({
      status: 'Bad Request',
      message: "Field 'scope' is not supported.",
    })
  })
})

describe("the hosted-link forms (create and update share their parts' types)", () => {
  const link = (o: Record<string, unknown> = {}) => ({
    id_types: [{ country: 'NG', id_type: 'NIN', verification_method: 'biometric_kyc' }],
    name: 'Open an account',
    notice_privacy_policy_url: 'https://example.com/privacy',
    is_single_use: 'false',
    ...o,
  })

  it.each([
    ['a blank name', link({ name: '   ' }), required('name')],
    ['a name over 200 characters', link({ name: 'n'.repeat(201) }), required('name')],
    [
      'a privacy notice over http',
      link({ notice_privacy_policy_url: 'http://example.com/privacy' }),
      required('notice_privacy_policy_url'),
    ],
    ['a description over 1000 characters', link({ description: 'd'.repeat(1001) }), "Field 'description' is invalid."],
    ['an unknown part', link({ colour: 'red' }), "Field 'colour' is not supported."],
  ])('refuses %s on create', async (_what, fields, message) => {
    const res = await client.post('/v3/hosted_links', fields)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(message)
  })

  it('refuses the same on update, and keeps the link unchanged', async () => {
    const created = await client.post('/v3/hosted_links', link())
    expect(created.status).toBe(201)
    const path = `/v3/hosted_links/${created.body.ref_id}`
    expect((await client.put(path, { name: ' ' })).body.message).toBe(required('name'))
    expect((await client.put(path, { is_disabled: 'sometimes' })).body.message).toBe("Field 'is_disabled' is invalid.")
    expect((await client.put(path, { expires_at: 'soon' })).body.message).toBe("Field 'expires_at' is invalid.")
    expect((await client.get(path)).body).toMatchObject({
      name: 'Open an account',
      is_disabled: false,
      expires_at: null,
    })
  })
})

describe("a query or a path part, checked against the handler's types", () => {
  it.each([
    ['/v3/hosted_links?page=0', 'page must be an integer from 1 to 100'],
    ['/v3/hosted_links?page=1.5', 'page must be an integer from 1 to 100'],
    ['/v3/hosted_links?limit=101', 'limit must be an integer from 1 to 100'],
    ['/v3/hosted_links?limit=many', 'limit must be an integer from 1 to 100'],
    ['/v3/hosted_links?sort=name', "Field 'sort' is not supported."],
    ['/v3/hosted_links/not-a-uuid', 'refId must be a valid link id'],
    ['/v3/aml/monitoring/job_x/news/ref?news_category=narcotics&page=0', 'page must be an integer from 1 to 100'],
    ['/v3/aml/monitoring/job_x/news/ref', 'news_category is required'],
    ['/v3/services/id_status?country=NG', '"id_type" is required'],
    ['/v3/services/id_status?country=NG&id_type=NIN&verbose=1', '"verbose" is not allowed'],
    ['/v3/services/id_status?country=&id_type=NIN', '"country" is required'],
    ['/v3/status/JOB_01', `"jobId" must be a valid TypeID with prefix 'job_'`],
  ])('GET %s → 400 %s', async (path, message) => {
    const res = await client.get(path)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'Bad Request', message })
  })

  it('refuses a malformed job id on replay in its own words', async () => {
    const res = await client.post('/v3/replay/job_!', undefined)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(`"job_id" must be a valid TypeID with prefix 'job_'`)
  })

  it('converts page and limit to numbers for the list', async () => {
    const res = await client.get('/v3/hosted_links?page=2&limit=1')
    expect(res.status).toBe(200)
    expect(res.body.meta).toMatchObject({ current_page: 2, limit: 1 })
  })

  it.each([
    ['supported_documents?region=EU', 'region is not a parameter of this service'],
    [
      'supported_documents?continent=europe',
      'continent must be one of: AFRICA, ASIA, EUROPE, NORTH AMERICA, OCEANIA, SOUTH AMERICA',
    ],
    [
      'bank_codes?country=NGA',
      'Country Code must be a valid ISO 3166-1 alpha-2 country code consisting of exactly two uppercase letters.',
    ],
  ])("answers the public catalogue's %s in its envelope", async (query, error) => {
    const res = await fetch(`${server.url}/v3/services/${query}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error, code: '2413' })
  })
})

describe('without the types', () => {
  it('the service refuses to start rather than serve unchecked handlers', async () => {
    const untyped = await createApp(CONTROLLERS, { types: 'off' })
    expect(() => requireTypes(untyped)).toThrow(
      /types are unknown for .*Default\.POST \(v3\/enhanced_kyc\.ts\).*routeless build/,
    )
    requireTypes(server.service.app)
  })
})

/** POST /v3/token with the key headers and a multipart body of `fields`. */
function tokenCall(fields: Record<string, unknown>): Promise<Response> {
  const { body, contentType } = encodeMultipart(partsOf(fields))
  return fetch(`${server.url}/v3/token`, {
    method: 'POST',
    headers: { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': API_KEY, 'content-type': contentType },
    body,
  })
}
