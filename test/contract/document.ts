/**
 * The served OpenAPI 3.1 document as the contract test reads it: its operations (method, path, parameters, request
 * body, responses, security) and its schemas with `$ref` and `allOf` resolved where the generators need them.
 */

export type Schema = Record<string, any> | boolean

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: Schema
  /** A query parameter whose empty value (`?name=`) is taken (`allowEmptyValue`): not a violation. */
  allowEmptyValue: boolean
  /** Where it is in the document, for messages. */
  pointer: string
}

export interface MediaType {
  type: string
  schema: Schema
  /** multipart/form-data: each part's declared content type (`encoding.<name>.contentType`). */
  encoding: Record<string, string>
}

export interface Operation {
  method: string
  path: string
  /** `GET /v2/languages`. */
  id: string
  parameters: Parameter[]
  body?: { required: boolean; media: MediaType[] }
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>
  /** The names of the schemes of its first non-empty security requirement (none: no credentials needed). */
  security: string[]
}

export interface OpenApiDocument {
  openapi: string
  paths: Record<string, Record<string, any>>
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, any> }
  security?: Array<Record<string, string[]>>
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const pointer = `#/paths/${pointerSegment(path)}/${method}`
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(
        (p: any, i: number): Parameter => ({
          name: p.name,
          in: p.in,
          required: p.required === true || p.in === 'path',
          schema: p.schema ?? {},
          allowEmptyValue: p.in === 'query' && p.allowEmptyValue === true,
          pointer: `${pointer}/parameters/${i}`,
        }),
      )
      const requirements: Array<Record<string, string[]>> = op.security ?? doc.security ?? []
      const first = requirements.find((r) => Object.keys(r).length > 0)
      // An empty requirement `{}` among them makes credentials optional: nothing to refuse without them.
      const optional = requirements.some((r) => Object.keys(r).length === 0)
      operations.push({
        method: method.toUpperCase(),
        path,
        id: `${method.toUpperCase()} ${path}`,
        parameters,
        body: op.requestBody && {
          required: op.requestBody.required === true,
          media: Object.entries(op.requestBody.content ?? {}).map(([type, m]: [string, any]) => ({
            type,
            schema: m.schema ?? {},
            encoding: Object.fromEntries(
              Object.entries(m.encoding ?? {}).map(([name, e]: [string, any]) => [name, e.contentType]),
            ),
          })),
        },
        responses: op.responses ?? {},
        security: first && !optional ? Object.keys(first) : [],
      })
    }
  }
  return operations
}

function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** Follows `$ref`s (local ones, `#/components/...`) until a schema without one. */
export function deref(doc: OpenApiDocument, schema: Schema): Schema {
  let current = schema
  for (let hops = 0; typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${current.$ref}`)
    const { $ref, ...rest } = current
    const target = lookup(doc, $ref)
    // Sibling keywords of `$ref` (3.1 allows them) apply too.
    current = Object.keys(rest).length === 0 ? target : merge(doc, [target, rest])
  }
  return current
}

function lookup(doc: OpenApiDocument, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are read: ${ref}`)
  let node: any = doc
  for (const raw of ref.slice(2).split('/')) {
    node = node?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  if (node === undefined) throw new Error(`$ref to nothing: ${ref}`)
  return node
}

/**
 * The schema with `$ref` and `allOf` folded into one object, for generating values. Only what the generators read is
 * combined (types, properties, required, bounds); values are still checked against the original with Ajv.
 */
export function flatten(doc: OpenApiDocument, schema: Schema): Schema {
  const s = deref(doc, schema)
  if (typeof s !== 'object' || !Array.isArray(s.allOf)) return s
  const { allOf, ...rest } = s
  return merge(doc, [...allOf, rest])
}

function merge(doc: OpenApiDocument, parts: Schema[]): Schema {
  const out: Record<string, any> = {}
  for (const raw of parts) {
    const part = flatten(doc, raw)
    if (part === false) return false
    if (part === true) continue
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') out.properties = { ...out.properties, ...value }
      else if (key === 'required') out.required = [...new Set([...(out.required ?? []), ...value])]
      else if (key === 'minimum' || key === 'minLength' || key === 'minItems' || key === 'minProperties')
        out[key] = Math.max(out[key] ?? -Infinity, value)
      else if (key === 'maximum' || key === 'maxLength' || key === 'maxItems' || key === 'maxProperties')
        out[key] = Math.min(out[key] ?? Infinity, value)
      else if (key === 'additionalProperties' && out.additionalProperties === false) continue
      else out[key] = value
    }
  }
  return out
}

/** The JSON types a schema allows (all of them when it does not say). */
export function typesOf(doc: OpenApiDocument, schema: Schema): Set<string> {
  const s = flatten(doc, schema)
  const all = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']
  if (s === true) return new Set(all)
  if (s === false) return new Set()
  if ('const' in s) return new Set([jsonType(s.const)])
  if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonType))
  if (s.type) return new Set(Array.isArray(s.type) ? s.type : [s.type])
  const branches = s.anyOf ?? s.oneOf
  if (Array.isArray(branches)) return new Set(branches.flatMap((b: Schema) => [...typesOf(doc, b)]))
  if (s.properties) return new Set(['object'])
  if (s.items) return new Set(['array'])
  return new Set(all)
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}
