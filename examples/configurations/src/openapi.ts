/**
 * The OpenAPI 3.1 document served at `GET /openapi.json`: routeless generates the paths, parameters, JSON bodies and
 * answers from the handlers' types (src/inputs.ts, src/responses.ts); this adds what is this API's own — the session
 * (cookie or Bearer token) as the security scheme, the `{field, message}` error list, and the query parameters only
 * on the list.
 */
import type { Application } from 'routeless'

const PUBLIC = [
  ['/login', 'post'],
  ['/openapi.json', 'get'],
  ['/healthz', 'get'],
  ['/readyz', 'get'],
]

export function configurationsOpenApi(app: Application): Record<string, unknown> {
  const doc = app.openapi({
    info: {
      title: 'routeless configurations example',
      version: '1.0.0',
      description: 'Configuration records (name, hostname, port, username) behind a login session.',
    },
    errorSchema: {
      type: 'object',
      description: 'The error envelope; a 400 lists every problem in `errors`',
      required: ['status', 'error', 'message'],
      properties: {
        status: { type: 'integer' },
        error: { type: 'string' },
        message: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The cookie POST /login sets' },
      token: { type: 'http', scheme: 'bearer', description: 'The X-Session-Token header of the login answer' },
    },
    security: [{ session: [] }, { token: [] }],
  }) as Record<string, any>
  for (const [path, method] of PUBLIC) if (doc.paths[path]?.[method]) doc.paths[path][method].security = []
  // One handler answers the list and a single record; only the list takes sort, page and per_page.
  const one = doc.paths['/configurations/{name}']?.get
  if (one) one.parameters = one.parameters.filter((p: { in: string }) => p.in === 'path')
  return doc
}
