/**
 * OpenAPI 3.1 generated from the route table and the parameter schemas: no annotations beyond `static params`.
 * @module
 */
import { jsonFieldsOf } from '../binding/form-values.ts'
import { JS_MARK, JSON_MARK } from '../binding/manifest.ts'
import { jsonSchemaOf, type ParamSpec, type ResponseSpec } from '../binding/standard-schema.ts'
import { MEDIA_TYPES } from '../lifecycle/body.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import { templatesOf } from '../routing/templates.ts'
import { STATUS_TEXT } from '../base/errors.ts'

export interface OpenAPIInfo {
  title: string
  version: string
  description?: string
}

export interface OpenAPIOptions {
  info?: OpenAPIInfo
  servers?: { url: string; description?: string }[]
  /** JSON Schema of the API's error body (`#/components/schemas/Error`); default: the routeless envelope. */
  errorSchema?: Record<string, unknown>
  /** `components.securitySchemes`, e.g. `{ key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } }`. */
  securitySchemes?: Record<string, Record<string, unknown>>
  /** Top-level `security` requirement, e.g. `[{ key: [] }]`. */
  security?: Record<string, string[]>[]
}

/** The routeless error envelope, as JSON Schema. */
const ENVELOPE_SCHEMA = {
  type: 'object',
  description: 'The routeless error envelope',
  required: ['status', 'error', 'message'],
  properties: {
    status: { type: 'integer' },
    error: { type: 'string' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, reason: { type: 'string' } } },
    },
  },
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY'])

/** The OpenAPI 3.1 document of every handler in `table`. */
export function generateOpenAPI(table: RouteTable, options: OpenAPIOptions = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  const seen = new Set<string>()
  const handlers = [...table.handlers()].sort(
    (a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  )
  for (const handler of handlers) {
    const method = handler.method
    // WEBSOCKET is no HTTP operation; ANY is every method the path does not list, which OpenAPI cannot say.
    if (method === 'HEAD' || method === 'WEBSOCKET' || method === 'ANY') continue
    for (const variant of pathVariants(handler)) {
      const operationId = uniqueId(`${method.toLowerCase()}${camel(variant.path)}`, seen)
      ;(paths[variant.path] ??= {})[method.toLowerCase()] = operation(handler, variant.params, operationId, table.defs)
    }
  }
  return {
    openapi: '3.1.0',
    info: options.info ?? { title: 'routeless application', version: '0.0.0' },
    ...(options.servers ? { servers: options.servers } : {}),
    paths,
    ...(options.security ? { security: options.security } : {}),
    components: {
      schemas: { ...toComponents(used(paths, table.defs)), Error: options.errorSchema ?? ENVELOPE_SCHEMA },
      ...(options.securitySchemes ? { securitySchemes: options.securitySchemes } : {}),
    },
  }
}

interface PathParam {
  name: string
  schema: Record<string, unknown>
}

/**
 * `/users` + `GET(id = '')` → `/users` and `/users/{id}`: one path per accepted number of positional parts. A
 * sub-resource's path already names its captured parameters (`/glossaries/{id}/entries`); the others follow it.
 */
function pathVariants(h: Handler): { path: string; params: PathParam[] }[] {
  const { from, paths } = templatesOf(h)
  return paths.map((path, k) => ({
    path,
    params: h.signature.names
      .slice(0, from + k)
      .map((name, i) => ({ name, schema: jsonSchemaOf(h.params?.args?.[i]) ?? typedArg(h, i) ?? { type: 'string' } })),
  }))
}

function operation(
  h: Handler,
  pathParams: PathParam[],
  operationId: string,
  defs: Record<string, Record<string, any>>,
): Record<string, unknown> {
  const spec: ParamSpec = h.params ?? {}
  const doc = h.types?.doc
  const op: Record<string, unknown> = {
    operationId,
    summary: spec.summary ?? doc?.split('\n')[0] ?? `${h.className}.${h.name}`,
  }
  if (spec.description ?? (doc?.includes('\n') ? doc : undefined)) op.description = spec.description ?? doc
  if (spec.tags) op.tags = spec.tags
  const parameters: Record<string, unknown>[] = pathParams.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    schema: p.schema,
  }))
  const kwargs = jsonSchemaOf(spec.kwargs) ?? typedKwargs(h, defs)
  if (kwargs && !BODY_METHODS.has(h.method)) {
    const required = new Set<string>((kwargs.required as string[] | undefined) ?? [])
    for (const [name, schema] of Object.entries((kwargs.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const param: Record<string, unknown> = { name, in: 'query', required: required.has(name), schema }
      if (schema.type === 'array') Object.assign(param, { style: 'form', explode: true })
      parameters.push(param)
    }
  }
  if (parameters.length) op.parameters = parameters
  if (BODY_METHODS.has(h.method)) {
    const schema = kwargs ?? { type: 'object' }
    const kinds =
      h.consumes ?? (JSON.stringify(kwargs ?? {}).includes('"format":"binary"') ? ['multipart'] : ['json', 'form'])
    // Fields sent as JSON text (`@json`): the form's `encoding` says so, as OpenAPI does for a part's media type.
    const json = spec.kwargs ? [] : jsonFieldsOf(h.types?.kwargs?.schema, defs)
    const encoding = json.length
      ? { encoding: Object.fromEntries(json.map((name) => [name, { contentType: 'application/json' }])) }
      : {}
    op.requestBody = {
      required: Boolean(kwargs?.required?.length),
      content: Object.fromEntries(kinds.map((k) => [MEDIA_TYPES[k], { schema, ...(k === 'json' ? {} : encoding) }])),
    }
  }
  const returns = h.types?.returns
  op.responses = responses(spec.responses, h.method, returns ? linked(returns) : undefined)
  return op
}

/** A positional parameter's schema from the handler's types (a rest parameter's items for the parts after it). */
function typedArg(h: Handler, i: number): Record<string, unknown> | undefined {
  const positional = h.types?.positional
  if (!positional?.length) return undefined
  const p = positional[Math.min(i, positional.length - 1)]!
  const schema = p.rest ? p.schema.items : i < positional.length ? p.schema : undefined
  return schema && Object.keys(schema).length ? linked(schema) : undefined
}

/** The keyword parameter's object schema from the handler's types (a named type inlined, so its properties list). */
function typedKwargs(h: Handler, defs: Record<string, Record<string, any>>): Record<string, any> | undefined {
  let schema = h.types?.kwargs?.schema as Record<string, any> | undefined
  if (schema?.$ref?.startsWith('#/$defs/')) schema = defs[schema.$ref.slice(8)]
  return schema?.type === 'object' ? linked(schema) : undefined
}

/** `#/$defs/Name` → `#/components/schemas/Name`. */
function linked<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(linked) as T
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  if ((schema as Record<string, unknown>)[JS_MARK] === 'File') (out.type = 'string'), (out.format = 'binary') // a multipart part
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'errorMessage' || k === JS_MARK || k === JSON_MARK) continue // routeless's own keywords: no part of the published schema
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : linked(v)
  }
  return out as T
}

/**
 * The named types the operations refer to, and those they refer to in turn: a manifest may describe other apps'
 * controllers too (one `.routeless/manifest.json` per working directory), whose types are no part of this document.
 */
function used(paths: unknown, defs: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (typeof node !== 'object' || node === null) return
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const name = v.replace(/^#\/(?:components\/schemas|\$defs)\//, '')
        if (name !== v && defs[name] && !out[name]) {
          out[name] = defs[name]!
          visit(defs[name])
        }
      } else visit(v)
    }
  }
  visit(paths)
  return out
}

function toComponents(defs: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(defs).map(([name, schema]) => [name, linked(schema)]))
}

function responses(
  declared: ParamSpec['responses'],
  method: string,
  returns?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (declared && Object.keys(declared).some((k) => k.startsWith('2'))) {
    for (const [status, value] of Object.entries(declared)) {
      if (value === undefined) continue
      const r: ResponseSpec = typeof value === 'string' ? { description: value } : value
      // A success documented without a schema takes the declared return type's.
      const schema =
        r.schema === 'returns'
          ? returns
          : (jsonSchemaOf(r.schema, 'output') ?? (status.startsWith('2') && !r.contentType ? returns : undefined))
      out[status] = {
        description: r.description,
        ...(schema ? { content: { [r.contentType ?? 'application/json']: { schema } } } : {}),
      }
    }
  } else {
    out['200'] = {
      description: method === 'DELETE' ? 'Deleted' : 'Success',
      ...(returns ? { content: { 'application/json': { schema: returns } } } : {}),
    }
    for (const [status, value] of Object.entries(declared ?? {})) {
      if (value === undefined) continue
      const r: ResponseSpec = typeof value === 'string' ? { description: value } : value
      const schema = r.schema === 'returns' ? returns : jsonSchemaOf(r.schema, 'output')
      out[status] = {
        description: r.description,
        ...(schema ? { content: { [r.contentType ?? 'application/json']: { schema } } } : {}),
      }
    }
  }
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
  out['4XX'] ??= { description: 'Client error', ...error }
  out['5XX'] ??= { description: STATUS_TEXT[500], ...error }
  return out
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
