/**
 * The OpenAPI 3.1 document served at `GET /openapi.json`: routeless generates the paths, parameters, multipart bodies
 * and answers from the route table and the handlers' types (summaries from `params({ summary, tags })`); this adds
 * what is this API's own — `SmileID-Token` as the security scheme (and the token route's key headers) and the v3
 * error envelope. File parts (`File`) are binary in routeless's document already. Sub-resources
 * (`/v3/users/{userId}/report_fraud`, `/v3/aml/monitoring/{jobId}/news/{reference}`) come from their handler names,
 * spelt as written.
 */
import type { Application, OpenAPIOptions } from 'routeless'

type ErrorBodyOf = Extract<NonNullable<OpenAPIOptions['errorSchema']>, (site: never) => unknown>
type ErrorSite = Parameters<ErrorBodyOf>[0]
type ErrorBody = NonNullable<ReturnType<ErrorBodyOf>>

/** The public catalogue (`CatalogueController`: the `{error, code}` envelope). */
const CATALOGUE = ['/v3/services/bank_codes', '/v3/services/supported_id_types', '/v3/services/supported_documents']

/** Routes that need no token. */
const PUBLIC = [
  '/openapi.json',
  '/healthz',
  '/readyz',
  '/v3/token',
  '/v3/services/bank_codes',
  '/v3/services/supported_id_types',
  '/v3/services/supported_documents',
]

/** The v3 error envelope: most routes. */
const V3_ERROR = {
  type: 'object',
  title: 'Error',
  description: 'The v3 error envelope',
  required: ['status', 'message'],
  properties: { status: { type: 'string', description: 'The reason phrase' }, message: { type: 'string' } },
}

/** The public catalogue's envelope, as Smile ID's `ServiceErrorResponse` (2413: a bad parameter, 2401: system error). */
const SERVICE_ERROR = {
  type: 'object',
  title: 'ServiceError',
  description: "The public catalogue's error envelope",
  required: ['error', 'code'],
  properties: {
    error: { type: 'string', description: 'What went wrong' },
    code: { type: 'string', enum: ['2413', '2401'], description: '2413: a bad parameter; 2401: a system error' },
  },
}

/** The gateway's 413 (the whole body over 10 MB); a single image too large is a v3 413 `<field> is too large.`. */
const PAYLOAD_TOO_LARGE = {
  title: 'PayloadTooLarge',
  anyOf: [
    {
      type: 'object',
      required: ['job_id', 'message', 'status', 'user_id'],
      properties: {
        job_id: { type: 'null' },
        message: { type: 'string' },
        status: { const: 'payload_too_large' },
        user_id: { type: 'null' },
      },
    },
    V3_ERROR,
  ],
}

/** What an error is sent as, by route: the hosted pages answer HTML, the catalogue its envelope, the rest v3's. */
function errorBodyAt(site: ErrorSite): ErrorBody {
  if (site.path.startsWith('/links/')) return { schema: { type: 'string' }, mediaType: 'text/html' }
  if (CATALOGUE.includes(site.path)) return { schema: SERVICE_ERROR }
  if (site.status === 413) return { schema: PAYLOAD_TOO_LARGE }
  return { schema: V3_ERROR }
}

export function verificationOpenApi(app: Application): Record<string, unknown> {
  const doc = app.openapi({
    info: {
      title: 'routeless verification example (Smile ID v3 style)',
      version: '1.0.0',
      description: 'Identity verification jobs, callbacks and hosted links. Bodies are multipart/form-data.',
    },
    errorSchema: errorBodyAt,
    securitySchemes: {
      smileIdToken: { type: 'apiKey', in: 'header', name: 'SmileID-Token', description: 'A token from POST /v3/token' },
    },
    security: [{ smileIdToken: [] }],
  }) as Record<string, any>
  for (const [path, operations] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
    for (const op of Object.values(operations)) {
      if (PUBLIC.includes(path) || path.startsWith('/links/')) op.security = []
    }
  }
  const token = doc.paths['/v3/token']?.post
  if (token) {
    token.parameters = [
      { name: 'smileid-partner-id', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'smileid-api-key', in: 'header', required: true, schema: { type: 'string' } },
    ]
    token.requestBody.required = false
  }
  return doc
}
