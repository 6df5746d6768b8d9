/**
 * The OpenAPI document of an application, generated from the route table and the handlers' types: OpenAPI 3.1 by
 * default, 3.2 on request (`query` operations, `itemSchema` for streamed answers). Each operation carries the answers
 * its type declares and those routeless gives on its own where they can happen (`openapi/framework.ts`), the security
 * its guards check, its JSDoc and its module's tag.
 * @module
 */
import { STATUS_TEXT } from '../base/errors.ts'
import type { JsonSchema } from '../contract/manifest.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import { handlerAnswers } from './openapi/answers.ts'
import { wordsOf } from './openapi/doc-text.ts'
import { ErrorBodies } from './openapi/errors.ts'
import { addFrameworkAnswers, sortResponses } from './openapi/framework.ts'
import type { OpenAPIOptions } from './openapi/options.ts'
import { pathVariants, readsBody, requestOf } from './openapi/request.ts'
import { addDiscriminators, usedDefs } from './openapi/schemas.ts'
import { SecuritySchemes } from './openapi/security.ts'

export type { ErrorBody, ErrorSite, OpenAPIInfo, OpenAPIOptions } from './openapi/options.ts'

/** The OpenAPI document (3.1, or 3.2 with `version: '3.2'`) of every handler in `table`. */
export function generateOpenAPI(table: RouteTable, options: OpenAPIOptions = {}): Record<string, unknown> {
  const version = options.version ?? '3.1'
  const errors = new ErrorBodies(options.errorSchema)
  const security = new SecuritySchemes(options)
  const paths: Record<string, Record<string, Record<string, unknown>>> = {}
  const seen = new Set<string>()
  const handlers = [...table.handlers()].sort(
    (a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  )
  for (const handler of handlers) {
    const method = handler.method
    // WEBSOCKET is no HTTP operation (see `routeless asyncapi`); ANY is every method the path does not list, which
    // OpenAPI cannot say; HEAD is GET's; QUERY is an operation from 3.2 on.
    if (method === 'HEAD' || method === 'WEBSOCKET' || method === 'ANY') continue
    if (method === 'QUERY' && version !== '3.2') continue
    for (const variant of pathVariants(handler)) {
      const operationId = uniqueId(`${method.toLowerCase()}${camel(variant.path)}`, seen)
      const op = operation(handler, variant, operationId, table.defs, { version, errors, security })
      ;(paths[variant.path] ??= {})[method.toLowerCase()] = op
    }
  }
  const tags = new Set<string>()
  for (const item of Object.values(paths))
    for (const op of Object.values(item)) for (const tag of op.tags as string[]) tags.add(tag)
  const schemas = { ...usedDefs(paths, table.defs), ...errors.components }
  const doc: Record<string, unknown> = {
    openapi: version === '3.2' ? '3.2.0' : '3.1.0',
    info: options.info ?? { title: 'routeless application', version: '0.0.0' },
    servers: options.servers ?? serversOf(options.origin),
    ...(options.security ? { security: options.security } : {}),
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas,
      ...(Object.keys(security.schemes).length ? { securitySchemes: security.schemes } : {}),
    },
  }
  addDiscriminators(doc.paths, schemas)
  addDiscriminators(schemas, schemas)
  return doc
}

interface DocumentParts {
  version: '3.1' | '3.2'
  errors: ErrorBodies
  security: SecuritySchemes
}

function operation(
  h: Handler,
  variant: ReturnType<typeof pathVariants>[number],
  operationId: string,
  defs: Record<string, JsonSchema>,
  parts: DocumentParts,
): Record<string, unknown> {
  const { binds, ...request } = requestOf(h, variant.params, defs)
  const guards = parts.security.summarize(h.guards)
  const { responses, declared } = handlerAnswers(h, parts.version, defs, (s) => STATUS_TEXT[s] ?? `HTTP ${s}`)
  addFrameworkAnswers(
    responses,
    {
      site: { path: variant.path, method: h.method, file: h.file, className: h.className, name: h.name },
      declared,
      binds,
      readsBody: readsBody(h.method),
      refusals: guards.refusals,
    },
    parts.errors,
  )
  return {
    operationId,
    ...wordsOf(h),
    ...request,
    responses: sortResponses(responses),
    ...(guards.security ? { security: guards.security } : {}),
  }
}

/** The one server a document has when none is configured: where it is served from, else its own host (`/`). */
function serversOf(origin: string | Request | undefined): { url: string }[] {
  if (origin === undefined) return [{ url: '/' }]
  const url = typeof origin === 'string' ? origin : new URL(origin.url).origin
  return [{ url: url.replace(/\/+$/, '') || '/' }]
}

function camel(path: string): string {
  return (
    path
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('') || 'Root'
  )
}

function uniqueId(id: string, seen: Set<string>): string {
  let out = id
  for (let i = 2; seen.has(out); i++) out = `${id}${i}`
  seen.add(out)
  return out
}
