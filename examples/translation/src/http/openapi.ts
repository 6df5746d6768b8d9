/**
 * The OpenAPI 3.1 document of this API: routeless generates paths and parameters from the route table and the
 * parameter schemas; this adds what is DeepL's own — the `DeepL-Auth-Key` security scheme and the `{"message"}`
 * error body instead of routeless's envelope (the translator page's errors are HTML).
 */
import type { Application } from 'routeless'

const DEEPL_ERROR = {
  type: 'object',
  title: 'Error',
  description: "DeepL's error body",
  required: ['message'],
  properties: { message: { type: 'string' }, detail: { type: 'string' } },
}

export function deeplOpenApi(app: Application): Record<string, unknown> {
  const doc = app.openapi({
    info: {
      title: 'routeless translation example (DeepL-compatible)',
      version: '1.0.0',
      description: 'A self-hostable server speaking the DeepL API.',
    },
    errorSchema: DEEPL_ERROR,
    securitySchemes: {
      auth_header: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'DeepL-Auth-Key <key>' },
    },
    security: [{ auth_header: [] }],
  }) as Record<string, any>
  // The page and this document need no key.
  for (const path of ['/', '/openapi.json', '/healthz', '/readyz'])
    for (const op of Object.values(doc.paths[path] ?? {}) as Record<string, unknown>[]) op.security = []
  // The translator page answers its errors as the page itself (its renderError), not in DeepL's body.
  for (const op of Object.values(doc.paths['/'] ?? {}) as Record<string, any>[])
    for (const response of Object.values(op.responses ?? {}) as Record<string, any>[])
      if (response.content?.['application/json']?.schema?.$ref === '#/components/schemas/Error')
        response.content = { 'text/html': { schema: { type: 'string' } } }
  return doc
}
