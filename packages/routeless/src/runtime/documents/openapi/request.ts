/**
 * What an operation takes: its path and query parameters, and its request body, published only where the handler
 * reads one (it declares keyword arguments, `static params` gives their schema, or `static accepts` takes raw bytes).
 * @module
 */
import { jsonFieldsOf } from '../../contract/form-values.ts'
import type { JsonSchema } from '../../contract/manifest.ts'
import { jsonSchemaOf } from '../../contract/standard-schema.ts'
import { MEDIA_TYPES } from '../../lifecycle/body.ts'
import type { Handler } from '../../routing/table.ts'
import { templatesOf } from '../../routing/templates.ts'
import { takesEmptyValue } from './empty-value.ts'
import { linked } from './schemas.ts'

/** Methods whose keyword arguments come from the body (a GET's, a DELETE's come from the query). */
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY'])

/** Methods whose body routeless reads, whatever the handler takes: a malformed one is a 400, a large one a 413. */
export function readsBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
}

export interface PathParam {
  name: string
  schema: Record<string, unknown>
}

/**
 * `/users` + `GET(id = '')` → `/users` and `/users/{id}`: one path per accepted number of positional parts. A
 * sub-resource's path already names its captured parameters (`/glossaries/{id}/entries`); the others follow it.
 */
export function pathVariants(h: Handler): { path: string; params: PathParam[] }[] {
  const { from, paths } = templatesOf(h)
  return paths.map((path, k) => ({
    path,
    params: h.signature.names
      .slice(0, from + k)
      .map((name, i) => ({ name, schema: jsonSchemaOf(h.params?.args?.[i]) ?? typedArg(h, i) ?? { type: 'string' } })),
  }))
}

/** The operation's `parameters` and `requestBody`. */
export function requestOf(
  h: Handler,
  pathParams: PathParam[],
  defs: Record<string, JsonSchema>,
): { parameters?: Record<string, unknown>[]; requestBody?: Record<string, unknown>; binds: boolean } {
  const spec = h.params ?? {}
  const parameters: Record<string, unknown>[] = pathParams.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    schema: p.schema,
  }))
  const kwargs = jsonSchemaOf(spec.kwargs) ?? typedKwargs(h, defs)
  const takesKeywords = Boolean(spec.kwargs || h.signature.kwargs || h.types?.kwargs)
  if (kwargs && !BODY_METHODS.has(h.method)) {
    const required = new Set<string>((kwargs.required as string[] | undefined) ?? [])
    for (const [name, schema] of Object.entries((kwargs.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const param: Record<string, unknown> = { name, in: 'query', required: required.has(name), schema }
      if (schema.type === 'array') Object.assign(param, { style: 'form', explode: true })
      // `?page_size=` is null where the type allows null (`true` for a boolean): a value, not a refusal
      else if (takesEmptyValue(schema, defs)) param.allowEmptyValue = true
      parameters.push(param)
    }
  }
  const content: Record<string, unknown> = {}
  if (takesKeywords && BODY_METHODS.has(h.method)) {
    const schema = kwargs ?? { type: 'object' }
    const kinds =
      h.consumes ?? (JSON.stringify(kwargs ?? {}).includes('"format":"binary"') ? ['multipart'] : ['json', 'form'])
    // Fields sent as JSON text (`@json`): the form's `encoding` says so, as OpenAPI does for a part's media type.
    const json = spec.kwargs ? [] : jsonFieldsOf(h.types?.kwargs?.schema, defs)
    const encoding = json.length
      ? { encoding: Object.fromEntries(json.map((name) => [name, { contentType: 'application/json' }])) }
      : {}
    for (const k of kinds) content[MEDIA_TYPES[k]] = { schema, ...(k === 'json' ? {} : encoding) }
  }
  // Media types taken as raw bytes (`static accepts`): the handler reads the body itself.
  for (const type of h.accepts ?? []) content[type] ??= { schema: { type: 'string', contentMediaType: type } }
  const requestBody = Object.keys(content).length ? { required: Boolean(kwargs?.required?.length), content } : undefined
  const queried = parameters.length > pathParams.length
  // A path part any string fills cannot be refused; a number, a pattern, a union of literals can.
  const checked = pathParams.some((p) => !(p.schema.type === 'string' && Object.keys(p.schema).length === 1))
  return {
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    binds: checked || queried || takesKeywords,
  }
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
function typedKwargs(h: Handler, defs: Record<string, JsonSchema>): JsonSchema | undefined {
  let schema = h.types?.kwargs?.schema as JsonSchema | undefined
  if (schema?.$ref?.startsWith('#/$defs/')) schema = defs[schema.$ref.slice(8)]
  return schema?.type === 'object' ? linked(schema) : undefined
}
