/**
 * The OpenAPI 3.1 document served at `GET /openapi.json`: routeless generates the paths, parameters, multipart bodies
 * and answers from the route table and the handlers' types (summaries from `params({ summary, tags })`); this adds
 * what is this API's own — `SmileID-Token` as the security scheme (and the token route's key headers) and the v3
 * error envelope. File parts (`File`) are binary in routeless's document already. Sub-resources
 * (`/v3/users/{userId}/report_fraud`, `/v3/aml/monitoring/{jobId}/news/{reference}`) come from their handler names,
 * spelt as written.
 */
import type { Application } from 'routeless'

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

export function verificationOpenApi(app: Application): Record<string, unknown> {
  const doc = app.openapi({
    info: {
      title: 'routeless verification example (Smile ID v3 style)',
      version: '1.0.0',
      description: 'Identity verification jobs, callbacks and hosted links. Bodies are multipart/form-data.',
    },
    errorSchema: {
      type: 'object',
      description: 'The v3 error envelope (413 and the public catalogue routes have their own, see the README)',
      required: ['status', 'message'],
      properties: { status: { type: 'string', description: 'The reason phrase' }, message: { type: 'string' } },
    },
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
