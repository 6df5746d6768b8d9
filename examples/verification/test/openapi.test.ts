/** GET /openapi.json: a valid OpenAPI 3.1 document of every route; and the parameter schemas routeless validates. */
import { untypedFields } from '@routeless/example-kit/testing'
import { Validator } from '@seriousme/openapi-schema-validator'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V3Client } from './helpers/client.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let doc: any

/** The reference: `../shared/specs/` beside the repository root (never copied into it). */
const SPECS = fileURLToPath(new URL('../../../../shared/specs/', import.meta.url))
const ENDPOINT_TABLE = `${SPECS}verification-api-and-framework.md`
const SMILE_ID = `${SPECS}openapi/smileid-v3-openapi.yaml`
const referencePresent = existsSync(ENDPOINT_TABLE) && existsSync(SMILE_ID)
if (!referencePresent)
  console.warn(
    `\n!!! The verification reference is absent (${ENDPOINT_TABLE}, ${SMILE_ID}): the OpenAPI document's paths are NOT checked against it.\n`,
  )

/** `METHOD /path` of each operation, parameter names left out (`/v3/status/{}`): only the literal segments must match. */
function operationsOf(paths: Record<string, Record<string, unknown>>): string[] {
  const verbs = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'])
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => verbs.has(m))
      .map((m) => `${m.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`),
  )
}

beforeAll(async () => {
  server = await startServer({ worker: false })
  const res = await fetch(`${server.url}/openapi.json`)
  expect(res.status).toBe(200)
  doc = await res.json()
})
afterAll(() => server.close())

describe('GET /openapi.json', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
  })

  it('describes every parameter and body field with its type', () => {
    expect(untypedFields(doc)).toEqual([])
  })

  it('has every route of the README', () => {
    const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v3/token',
        'GET /v3/status/{jobId}',
        'POST /v3/replay/{jobId}',
        'POST /v3/enhanced_kyc',
        'POST /v3/enhanced_kyc/sync',
        'POST /v3/biometric_kyc',
        'POST /v3/document_verification',
        'POST /v3/enhanced_document_verification',
        'POST /v3/residency_document_verification',
        'POST /v3/registration',
        'POST /v3/authentication',
        'POST /v3/compare',
        'POST /v3/address',
        'POST /v3/aml',
        'POST /v3/aml/sync',
        'POST /v3/aml/monitoring',
        'GET /v3/aml/monitoring/{jobId}/news/{reference}',
        'POST /v3/users/{userId}/report_fraud',
        'POST /v3/hosted_links',
        'GET /v3/hosted_links',
        'GET /v3/hosted_links/{refId}',
        'PUT /v3/hosted_links/{refId}',
        'GET /v3/services/bank_codes',
        'GET /v3/services/id_status',
        'GET /v3/services/supported_documents',
        'GET /v3/services/supported_id_types',
        'GET /links/{partnerId}/{refId}',
        'POST /links/{partnerId}/{refId}',
        'GET /links/{partnerId}/{refId}/{jobId}',
        'GET /openapi.json',
        'GET /healthz',
        'GET /readyz',
      ]),
    )
    expect(operations).toHaveLength(32)
  })

  it.skipIf(!referencePresent)(
    referencePresent
      ? "carries every operation of the source document's endpoint table, spelt as Smile ID spells it"
      : `SKIPPED: the reference is absent at ${SPECS}`,
    () => {
      const ours = new Set(operationsOf(doc.paths))
      // The source document's table: `| GET | /v3/status/{jobId} | … |` (`hosted_links` for Smile ID's `smile_links`).
      const table = readFileSync(ENDPOINT_TABLE, 'utf8')
      const rows = [...table.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/\S+) \|/gm)].map((m) =>
        operationsOf({ [m[2]!]: { [m[1]!.toLowerCase()]: {} } }).join(),
      )
      expect(rows).toHaveLength(26)
      expect(rows.filter((op) => !ours.has(op))).toEqual([])
      // Smile ID's own file: every operation it has, with its spelling (`report_fraud`, `bank_codes` …).
      const official = operationsOf(parse(readFileSync(SMILE_ID, 'utf8')).paths).map((op) =>
        op.replace('/v3/smile_links', '/v3/hosted_links'),
      )
      expect(official.length).toBeGreaterThan(20)
      expect(official.filter((op) => !ours.has(op))).toEqual([])
      // No path of ours is a dashed spelling of one of theirs.
      const dashed = [...rows, ...official].filter((op) => op.includes('_')).map((op) => op.replaceAll('_', '-'))
      expect(dashed.filter((op) => ours.has(op))).toEqual([])
    },
  )

  it('describes parameters, multipart bodies and the SmileID-Token', () => {
    expect(doc.paths['/v3/status/{jobId}'].get.parameters[0]).toMatchObject({
      name: 'jobId',
      in: 'path',
      schema: { type: 'string', pattern: expect.stringContaining('job_') },
    })
    const docs = doc.paths['/v3/services/supported_documents'].get
    expect(docs.parameters.map((p: any) => p.name)).toEqual(['continent', 'locale', 'country_code'])
    expect(docs.parameters[0].schema.enum).toContain('EUROPE')
    expect(
      doc.paths['/v3/aml/monitoring/{jobId}/news/{reference}'].get.parameters.map((p: any) => [p.name, p.in]),
    ).toEqual([
      ['jobId', 'path'],
      ['reference', 'path'],
      ['news_category', 'query'],
      ['page', 'query'],
      ['limit', 'query'],
    ])
    const ekyc = doc.paths['/v3/enhanced_kyc'].post.requestBody
    expect(Object.keys(ekyc.content)).toEqual(['multipart/form-data'])
    expect(ekyc.content['multipart/form-data'].schema.required).toEqual(
      expect.arrayContaining(['country', 'id_type', 'id_number', 'user_details', 'consent']),
    )
    const selfie = doc.paths['/v3/registration'].post.requestBody.content['multipart/form-data'].schema.properties
    expect(selfie.liveness_images).toMatchObject({
      type: 'array',
      minItems: 6,
      maxItems: 8,
      items: { format: 'binary' },
    })
    expect(doc.paths['/v3/users/{userId}/report_fraud'].post.parameters.map((p: any) => p.name)).toEqual(['userId'])
    expect(doc.components.securitySchemes.smileIdToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'SmileID-Token',
    })
    expect(doc.security).toEqual([{ smileIdToken: [] }])
    expect(doc.paths['/v3/token'].post.security).toEqual([])
    expect(doc.paths['/v3/services/bank_codes'].get.security).toEqual([])
    expect(doc.paths['/v3/services/id_status'].get.security).toBeUndefined()
    expect(doc.paths['/links/{partnerId}/{refId}'].get.security).toEqual([])
  })
  it("takes every parameter and body from the handlers' types: forms inline, files are binary", () => {
    const schemas = doc.components.schemas
    // Components are the named types the document refers to (a form's own fields are listed inline).
    expect(schemas).not.toHaveProperty('FilePart')
    expect(schemas).not.toHaveProperty('BiometricKycForm')
    const form = doc.paths['/v3/biometric_kyc'].post.requestBody.content['multipart/form-data'].schema
    expect(form.additionalProperties).toBe(false)
    expect(form.required).toEqual(
      expect.arrayContaining([
        'country',
        'id_type',
        'id_number',
        'selfie_image',
        'liveness_images',
        'user_details',
        'consent',
      ]),
    )
    expect(form.properties.selfie_image).toMatchObject({ type: 'string', format: 'binary' })
    expect(JSON.stringify(doc)).not.toMatch(/x-js|x-json|errorMessage/)
    expect(form.properties.sandbox_result).toMatchObject({ type: 'integer', minimum: 0 })
    // The JSON parts are described by their types (a part of JSON text; lists say so in the body's encoding).
    expect(form.properties.consent).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/ConsentPart' }],
      description: expect.stringContaining('granted_at'),
    })
    expect(schemas.ConsentPart).toMatchObject({
      type: 'object',
      required: ['granted', 'granted_at', 'notice_language', 'notice_privacy_policy_url'],
    })
    expect(schemas.UserDetailsPart.properties.email).toMatchObject({
      type: ['null', 'string'],
      pattern: expect.any(String),
    })
    expect(form.properties.metadata).toMatchObject({
      type: 'array',
      maxItems: 50,
      items: { $ref: '#/components/schemas/MetadataItem' },
    })
    expect(doc.paths['/v3/biometric_kyc'].post.requestBody.content['multipart/form-data'].encoding).toEqual({
      metadata: { contentType: 'application/json' },
    })
    const aml = doc.paths['/v3/aml'].post.requestBody.content['multipart/form-data']
    expect(aml.schema.properties.countries).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 250,
      items: { type: 'string', pattern: '^[A-Z]{2}$' },
    })
    expect(Object.keys(aml.encoding).sort()).toEqual(['aliases', 'countries', 'metadata'])
    const list = doc.paths['/v3/hosted_links'].get.parameters
    expect(list.find((p: any) => p.name === 'page')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    })
    expect(doc.paths['/v3/services/id_status'].get.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['country', true],
      ['id_type', true],
    ])
  })
})

describe("parameters routeless validates, with the contract's messages", () => {
  it('answers a malformed job id with the v3 envelope, after the token check', async () => {
    const client = new V3Client(server.url, PARTNER_ID, API_KEY)
    const res = await client.get('/v3/status/job_nope')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'Bad Request', message: `"jobId" must be a valid TypeID with prefix 'job_'` })
    expect((await fetch(`${server.url}/v3/status/job_nope`)).status).toBe(401)
  })

  it.each([
    ['bank_codes?country=ng'],
    ['bank_codes?country=NG&country=KE'],
    ['supported_id_types?country=Nigeria'],
    ['supported_documents?country_code=n'],
  ])('answers %s with the catalogue envelope', async (query) => {
    const res = await fetch(`${server.url}/v3/services/${query}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error:
        'Country Code must be a valid ISO 3166-1 alpha-2 country code consisting of exactly two uppercase letters.',
      code: '2413',
    })
  })

  it('reports the first failing catalogue filter, in the order the contract checks them', async () => {
    const res = await fetch(
      `${server.url}/v3/services/supported_documents?country_code=x&locale=xx-XX&continent=ATLANTIS`,
    )
    expect(await res.json()).toEqual({
      error: 'continent must be one of: AFRICA, ASIA, EUROPE, NORTH AMERICA, OCEANIA, SOUTH AMERICA',
      code: '2413',
    })
    const locale = await fetch(`${server.url}/v3/services/supported_documents?locale=xx-XX`)
    expect((await locale.json()).error).toBe('locale must be one of: en-GB, fr-FR, ar-EG')
    expect((await fetch(`${server.url}/v3/services/bank_codes?country=`)).status).toBe(200)
  })
})
