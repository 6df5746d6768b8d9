import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V3Client } from './helpers/client.ts'
import {
  CALLBACK,
  CLEARWATER,
  CONSENT,
  DOCUMENT_PNG,
  LIVENESS,
  NOT_AN_IMAGE,
  person,
  SELFIE,
} from './helpers/fixtures.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer({ config: { imageMaxBytes: 64 * 1024 } })
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

const common = { consent: CONSENT, user_details: CLEARWATER, callback_url: CALLBACK }
const bkyc = (o: Record<string, unknown> = {}) => ({
  selfie_image: SELFIE,
  liveness_images: LIVENESS,
  country: 'NG',
  id_type: 'BVN',
  id_number: '12345678901',
  ...common,
  ...o,
})
const docv = (o: Record<string, unknown> = {}) => ({
  selfie_image: SELFIE,
  liveness_images: LIVENESS,
  document: DOCUMENT_PNG,
  country: 'NG',
  ...common,
  ...o,
})
const big = new Uint8Array(64 * 1024 + 1)
big.set(SELFIE)

async function outcome(path: string, fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await client.post(path, fields, headers)
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  await client.waitUntilComplete(res.body.job_id)
  return (await server.services.jobs.get(res.body.job_id))!.result as Record<string, any>
}

describe('image checks', () => {
  it.each([
    [
      '/v3/biometric_kyc',
      bkyc({ selfie_image: undefined }),
      400,
      "Required field 'selfie_image' is missing or invalid.",
    ],
    [
      '/v3/biometric_kyc',
      bkyc({ selfie_image: 'a text part' }),
      400,
      "Required field 'selfie_image' is missing or invalid.",
    ],
    ['/v3/biometric_kyc', bkyc({ selfie_image: NOT_AN_IMAGE }), 400, "Field 'selfie_image' must be a JPEG image."],
    ['/v3/biometric_kyc', bkyc({ selfie_image: DOCUMENT_PNG }), 400, "Field 'selfie_image' must be a JPEG image."],
    ['/v3/biometric_kyc', bkyc({ selfie_image: big }), 413, 'selfie_image is too large.'],
    [
      '/v3/biometric_kyc',
      bkyc({ liveness_images: undefined }),
      400,
      "Required field 'liveness_images' is missing or invalid.",
    ],
    [
      '/v3/biometric_kyc',
      bkyc({ liveness_images: LIVENESS.slice(0, 5) }),
      400,
      "Field 'liveness_images' must contain between 6 and 8 images.",
    ],
    [
      '/v3/biometric_kyc',
      bkyc({ liveness_images: [...LIVENESS, SELFIE, SELFIE, SELFIE] }),
      400,
      "Field 'liveness_images' must contain between 6 and 8 images.",
    ],
    [
      '/v3/biometric_kyc',
      bkyc({ liveness_images: [...LIVENESS.slice(0, 5), NOT_AN_IMAGE] }),
      400,
      "Field 'liveness_images' must be a JPEG image.",
    ],
    [
      '/v3/document_verification',
      docv({ document: undefined }),
      400,
      "Required field 'document' is missing or invalid.",
    ],
    ['/v3/document_verification', docv({ document: NOT_AN_IMAGE }), 400, 'Document image must be JPEG or PNG.'],
    ['/v3/document_verification', docv({ document_back: NOT_AN_IMAGE }), 400, 'Document image must be JPEG or PNG.'],
    [
      '/v3/residency_document_verification',
      docv({ id_type: 'PASSPORT' }),
      400,
      "Required field 'visa' is missing or invalid.",
    ],
  ])('%s %# → %i', async (path, fields, status, message) => {
    const res = await client.post(path, fields, { 'SmileID-Partner-ID': PARTNER_ID })
    expect(res.status).toBe(status)
    expect(res.body.message).toBe(message)
  })
})

describe('POST /v3/biometric_kyc', () => {
  it('validates the ID like enhanced KYC', async () => {
    const res = await client.post('/v3/biometric_kyc', bkyc({ id_number: '12' }))
    expect(res.body.message).toBe('Invalid ID number format for the specified country and ID type.')
    const disabled = await client.post(
      '/v3/biometric_kyc',
      bkyc({ id_type: 'BANK_ACCOUNT', id_number: '0123456789', bank_code: '044' }),
    )
    expect(disabled.status).toBe(403)
  })

  it.each([
    ['Clearwater', {}, 'clear', null],
    ['Twinley', { user_details: person('Obinna Chukwu', 'Twinley') }, 'block', 'face_verification_failed'],
    ['Masquero', { user_details: person('Taiwo Adeyemi', 'Masquero') }, 'block', 'spoof_detected'],
    ['Blurton', { user_details: person('Kofi Mensah', 'Blurton') }, 'error', 'image_unavailable_or_invalid'],
    ['sandbox_result 1013 beats identity', { sandbox_result: '1013' }, 'block', 'sandbox_result'],
    [
      'sandbox_result 1220',
      { user_details: person('Taiwo Adeyemi', 'Masquero'), sandbox_result: '1220' },
      'clear',
      null,
    ],
    [
      'sandbox_result 1220.0 (a float, as the Python SDK sends it)',
      { user_details: person('Taiwo Adeyemi', 'Masquero'), sandbox_result: '1220.0' },
      'clear',
      null,
    ],
    ['sandbox_result 1013.00', { sandbox_result: '1013.00' }, 'block', 'sandbox_result'],
  ])('%s → %s', async (_name, overrides, status, reason) => {
    const result = await outcome('/v3/biometric_kyc', bkyc(overrides))
    expect(result).toMatchObject({ product: 'biometric_kyc', status, reason })
    if (reason === 'image_unavailable_or_invalid')
      expect(result.message).toBe('Error: selfie, liveness image(s) are unusable')
  })

  it.each(['pass', '1220.5', '1e400', '.0', '-1', '1220,1'])('rejects the sandbox_result %s', async (value) => {
    const res = await client.post('/v3/biometric_kyc', bkyc({ sandbox_result: value }))
    expect(res.status).toBe(400)
    expect(res.body.message).toBe("Field 'sandbox_result' is invalid.")
  })
})

describe('document verification', () => {
  it('classifies the document when id_type is missing and echoes it', async () => {
    const result = await outcome('/v3/document_verification', docv({ document_back: SELFIE }))
    expect(result).toMatchObject({
      status: 'clear',
      product: 'document_verification',
      document: { country: 'NG', id_type: 'DRIVERS_LICENSE' },
    })
  })

  it.each([
    ['Forgeman', 'block', 'document_check_failed'],
    ['Xeroxley', 'attention', 'document_copy_detected'],
    ['Puzzleton', 'error', 'document_unclassifiable'],
  ])('%s → %s', async (last, status, reason) => {
    const given = { Forgeman: 'Ade Ogundimu', Xeroxley: 'Adaeze Nnamdi', Puzzleton: 'Segun Olawale' }[last]!
    expect(await outcome('/v3/document_verification', docv({ user_details: person(given, last) }))).toMatchObject({
      status,
      reason,
    })
  })

  it('enhanced DocV requires an id_type the authority knows, and has its own test identities', async () => {
    const missing = await client.post('/v3/enhanced_document_verification', docv())
    expect(missing.body.message).toBe("Required field 'id_type' is missing or invalid.")
    const notEnabled = await client.post('/v3/enhanced_document_verification', docv({ id_type: 'NIN' }))
    expect(notEnabled.status).toBe(403)
    const result = await outcome(
      '/v3/enhanced_document_verification',
      docv({ id_type: 'PASSPORT', country: 'GH', user_details: person('Ifeanyi Okeke', 'Missingley') }),
    )
    expect(result).toMatchObject({
      status: 'block',
      reason: 'identifier_not_found',
      message: 'Verification failed: ID number not found',
      id_fields: null,
    })
    const ok = await outcome(
      '/v3/enhanced_document_verification',
      docv({ id_type: 'PASSPORT', country: 'GH', id_number: 'G1234567' }),
    )
    expect(ok).toMatchObject({
      status: 'clear',
      id_fields: { id_number: 'G1234567', id_type: 'PASSPORT', country: 'GH' },
    })
  })

  it('residency DocV needs PASSPORT, a visa image and the SmileID-Partner-ID header', async () => {
    const headers = { 'SmileID-Partner-ID': PARTNER_ID }
    const wrongType = await client.post(
      '/v3/residency_document_verification',
      docv({ id_type: 'DRIVERS_LICENSE', visa: DOCUMENT_PNG }),
      headers,
    )
    expect(wrongType.body.message).toBe("Field 'id_type' must be PASSPORT for residency document verification.")
    const noHeader = await client.post(
      '/v3/residency_document_verification',
      docv({ id_type: 'PASSPORT', visa: DOCUMENT_PNG }),
    )
    expect(noHeader.status).toBe(400)
    const otherPartner = await client.post(
      '/v3/residency_document_verification',
      docv({ id_type: 'PASSPORT', visa: DOCUMENT_PNG }),
      { 'SmileID-Partner-ID': '999' },
    )
    expect(otherPartner.status).toBe(403)
    const result = await outcome(
      '/v3/residency_document_verification',
      docv({ id_type: 'PASSPORT', visa: DOCUMENT_PNG }),
      headers,
    )
    expect(result).toMatchObject({ status: 'clear', product: 'residency_document_verification' })
    expect(result.additional_documents).toHaveLength(1)
    expect(result.additional_documents[0]).toMatchObject({
      full_name: 'Amina Fatou Clearwater',
      expiry: { expiry_period_in_months: '12' },
    })
  })
})

describe('SmartSelfie registration, authentication and compare', () => {
  const selfie = { selfie_image: SELFIE, liveness_images: LIVENESS, ...common }

  it('enrolls, refuses a second enrollment unless allowed, and authenticates the enrolled user', async () => {
    const first = await outcome('/v3/registration', selfie, { 'User-ID': 'enrollee-1' })
    expect(first).toMatchObject({
      status: 'clear',
      message: 'Enrollment successful',
      product: 'smart_selfie_registration',
    })
    expect(await server.services.enrollments.isEnrolled(PARTNER_ID, 'enrollee-1')).toBe(true)
    const again = await outcome('/v3/registration', selfie, { 'User-ID': 'enrollee-1' })
    expect(again).toMatchObject({ status: 'block', reason: 'user_already_enrolled' })
    const replaced = await outcome(
      '/v3/registration',
      { ...selfie, allow_new_enroll: 'true' },
      { 'User-ID': 'enrollee-1' },
    )
    expect(replaced.status).toBe('clear')

    const auth = await outcome('/v3/authentication', { ...common, user_id: 'enrollee-1', use_enrolled_image: 'true' })
    expect(auth).toMatchObject({ status: 'clear', product: 'smart_selfie_authentication' })
    const withImages = await outcome('/v3/authentication', { ...selfie, user_id: 'enrollee-1', sandbox_result: '821' })
    expect(withImages).toMatchObject({ status: 'block', reason: 'sandbox_result' })
    const locked = await outcome('/v3/authentication', {
      ...common,
      user_details: { given_names: 'Any', last_name: 'Lockhart', email: 'l@example.com' },
      user_id: 'enrollee-1',
      use_enrolled_image: 'true',
    })
    expect(locked).toMatchObject({ status: 'block', reason: 'account_locked' })
  })

  it('authentication needs a body user_id that is enrolled, and images unless use_enrolled_image', async () => {
    const noUser = await client.post('/v3/authentication', { ...common, use_enrolled_image: 'true' })
    expect(noUser.body.message).toBe("Required field 'user_id' is missing or invalid.")
    const unknown = await client.post('/v3/authentication', {
      ...common,
      user_id: 'nobody',
      use_enrolled_image: 'true',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: 'Not Found', message: 'User not found' })
    const noImages = await client.post('/v3/authentication', { ...common, user_id: 'nobody' })
    expect(noImages.body.message).toBe("Required field 'selfie_image' is missing or invalid.")
    const badFlag = await client.post('/v3/authentication', {
      ...common,
      user_id: 'nobody',
      use_enrolled_image: 'maybe',
    })
    expect(badFlag.body.message).toBe("Field 'use_enrolled_image' is invalid.")
  })

  it('compare checks comparison_image_type and enrolls a named user on success', async () => {
    const compare = { selfie_image: SELFIE, comparison_image: SELFIE, ...common }
    const badType = await client.post('/v3/compare', { ...compare, comparison_image_type: 'SELFIE' })
    expect(badType.body.message).toBe("Field 'comparison_image_type' must be either DOCUMENT, ID_PHOTO, or PORTRAIT.")
    const noImage = await client.post('/v3/compare', {
      ...compare,
      comparison_image: undefined,
      comparison_image_type: 'PORTRAIT',
    })
    expect(noImage.body.message).toBe("Required field 'comparison_image' is missing or invalid.")
    const result = await outcome('/v3/compare', {
      ...compare,
      comparison_image_type: 'ID_PHOTO',
      user_id: 'compared-1',
    })
    expect(result).toMatchObject({
      status: 'clear',
      product: 'smart_selfie_compare',
      comparison_image_type: 'ID_PHOTO',
    })
    expect(await server.services.enrollments.isEnrolled(PARTNER_ID, 'compared-1')).toBe(true)
    const twin = await outcome('/v3/compare', {
      ...compare,
      comparison_image_type: 'DOCUMENT',
      user_details: person('Obinna Chukwu', 'Twinley'),
    })
    expect(twin).toMatchObject({ status: 'block', reason: 'face_verification_failed' })
  })
})
