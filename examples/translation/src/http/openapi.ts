/**
 * The OpenAPI 3.1 document of this API: routeless generates paths and parameters from the route table and the
 * parameter schemas; this adds what is DeepL's own — the `DeepL-Auth-Key` security scheme and the `{"message"}`
 * error body instead of routeless's envelope.
 */
import type { Application } from 'routeless'

export function deeplOpenApi(app: Application): Record<string, unknown> {
  const doc = app.openapi({
    info: {
      title: 'routeless translation example (DeepL-compatible)',
      version: '1.0.0',
      description: 'A self-hostable server speaking the DeepL API.',
    },
    errorSchema: {
      type: 'object',
      description: "DeepL's error body",
      required: ['message'],
      properties: { message: { type: 'string' }, detail: { type: 'string' } },
    },
    securitySchemes: {
      auth_header: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'DeepL-Auth-Key <key>' },
    },
    security: [{ auth_header: [] }],
  }) as Record<string, any>
  // The page and this document need no key.
  for (const path of ['/', '/openapi.json', '/healthz', '/readyz'])
    for (const op of Object.values(doc.paths[path] ?? {}) as Record<string, unknown>[]) op.security = []
  return doc
}
